/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;

/**
 * Spreads {@link TestRows}, their ids moved by {@code offset}, over {@code tables} tables {@code
 * <prefix>t<id % tables>}.
 */
final class SpreadRows implements DynamicRecordGenerator<RowData> {

  private final String prefix;
  private final int tables;
  private final long offset;
  private final int buckets;
  private transient DynamicTable[] shapes;

  SpreadRows(String prefix, int tables, long offset, int buckets) {
    this.prefix = prefix;
    this.tables = tables;
    this.offset = offset;
    this.buckets = buckets;
  }

  @Override
  public void generate(RowData row, Output out) throws Exception {
    if (shapes == null) {
      shapes = new DynamicTable[tables];
      for (int i = 0; i < tables; i++) {
        shapes[i] = DynamicTable.of(prefix + "t" + i, TestRows.TYPE);
      }
    }
    long id = row.getLong(0) + offset;
    out.collect(new DynamicRecord(shapes[(int) (id % tables)], TestRows.row(id, buckets)));
  }

  /** The rows each table holds once the ids below {@code count} are written, by table name. */
  Map<String, List<List<Object>>> expected(long count) {
    Map<String, List<List<Object>>> rows = new LinkedHashMap<>();
    for (long i = 0; i < count; i++) {
      long id = i + offset;
      rows.computeIfAbsent(prefix + "t" + (id % tables), t -> new ArrayList<>())
          .add(TestRows.values(TestRows.row(id, buckets)));
    }
    return rows;
  }
}
