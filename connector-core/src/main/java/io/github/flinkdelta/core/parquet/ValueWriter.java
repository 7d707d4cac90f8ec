/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes one non-null value of a column into a Parquet record, reading it straight from Flink's
 * binary row or array without an intermediate copy. Values inside rows may also feed the column's
 * statistics; values inside arrays and maps never do, as in Delta.
 */
interface ValueWriter {

  void write(RecordConsumer consumer, RowData row, int pos);

  void write(RecordConsumer consumer, ArrayData array, int pos);

  /** Counts a null of this column (and, for a row, of every column below it). */
  void addNull();
}
