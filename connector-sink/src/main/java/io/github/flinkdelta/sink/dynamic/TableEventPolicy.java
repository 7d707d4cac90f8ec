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
   * Truncate or drop the table once the rows before the event are committed: the checkpoint's
   * version of the table is followed by one that removes every row, or the table is dropped. The
   * rows after a truncation land in the next checkpoint; those after a drop wait until the table is
   * dropped, and create it anew.
   */
  APPLY
}
