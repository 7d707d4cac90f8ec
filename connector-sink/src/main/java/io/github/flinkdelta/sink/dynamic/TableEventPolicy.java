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
  IGNORE
}
