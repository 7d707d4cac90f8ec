/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import org.apache.flink.annotation.PublicEvolving;

/**
 * What a {@link DynamicDeltaSink} does with a record whose table refuses it (see {@link
 * DynamicSinkOptions#REFUSED_RECORDS}).
 */
@PublicEvolving
public enum RefusedRecordPolicy {
  /** Fail the job, naming the table and the reason. */
  FAIL,
  /**
   * Write the record into the dead-letter table ({@link DynamicSinkOptions#DEAD_LETTER_TABLE}),
   * with its table and the reason, and go on.
   */
  DEAD_LETTER
}
