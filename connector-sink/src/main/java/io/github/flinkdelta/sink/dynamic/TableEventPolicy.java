/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import org.apache.flink.annotation.PublicEvolving;

/** What a {@link DynamicDeltaSink} does with a table truncated or dropped at the source. */
@PublicEvolving
public enum TableEventPolicy {
  /** Fail the job, naming the table and the event, before anything of it is applied. */
  FAIL,
  /** Log the event and go on; the table keeps its rows. */
  IGNORE,
  /**
   * Truncate the table once the rows before the event are committed: the checkpoint's version of
   * the table is followed by one that removes every row, and the rows after the event land in the
   * next checkpoint. A dropped table is refused as by {@link #FAIL}: dropping is not applied.
   */
  APPLY
}
