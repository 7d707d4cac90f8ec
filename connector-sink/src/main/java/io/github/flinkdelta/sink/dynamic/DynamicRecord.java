/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.data.RowData;

/**
 * One row bound for one table of a {@link DynamicDeltaSink}. The row is written as it is when the
 * generator hands it on: it must not be changed afterwards.
 *
 * @param table the table and the row's shape
 * @param row the row, of {@link DynamicTable#rowType()}; an appending table takes {@code INSERT}
 *     rows
 */
@PublicEvolving
public record DynamicRecord(DynamicTable table, RowData row) {
  public DynamicRecord {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(row, "row");
  }
}
