/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Routes {@link TestRows} into {@code tables} tables by id, {@code <prefix>t<id % tables>}. Each
 * source subtask reads half of the ids; in the second half of its share ("late"), rows of table 0
 * go to a table that appears only then, {@code <prefix>late}, and rows of table 1 take a wider
 * shape with a column {@code extra}. On the first attempt the generator fails right after the row
 * with id {@code failAt} was handed on, in the same call: nothing it created or changed can be in a
 * completed checkpoint.
 */
final class RoutedRows implements DynamicRecordGenerator<RowData> {

  static final RowType WIDE =
      new RowType(
          concat(TestRows.TYPE.getFields(), new RowType.RowField("extra", new BigIntType())));

  private final String prefix;
  private final int tables;
  private final long half;
  private final long failAt;
  private final FaultCounter injected;
  private transient Map<String, DynamicTable> shapes;

  RoutedRows(String prefix, int tables, long count, long failAt, FaultCounter injected) {
    this.prefix = prefix;
    this.tables = tables;
    this.half = count / 2;
    this.failAt = failAt;
    this.injected = injected;
  }

  @Override
  public void generate(RowData row, Output out) throws Exception {
    long id = row.getLong(0);
    String table = table(id);
    boolean wide = isWide(id);
    out.collect(
        new DynamicRecord(
            shape(table, wide),
            wide ? GenericRowData.of(id, row.getInt(1), row.getString(2), id * 10) : row));
    if (id == failAt && injected.count() == 0) {
      injected.fire();
      throw new IllegalStateException("Injected failure after row " + id);
    }
  }

  private DynamicTable shape(String table, boolean wide) {
    if (shapes == null) {
      shapes = new LinkedHashMap<>();
    }
    return shapes.computeIfAbsent(
        table + wide, key -> DynamicTable.of(table, wide ? WIDE : TestRows.TYPE));
  }

  private boolean late(long id) {
    return id % half >= half / 2;
  }

  String table(long id) {
    int index = (int) (id % tables);
    return index == 0 && late(id) ? prefix + "late" : prefix + "t" + index;
  }

  private boolean isWide(long id) {
    return id % tables == 1 && late(id);
  }

  /**
   * The rows each table holds once every id below {@code count} is written, by table name.
   *
   * @param buckets the buckets of the source's rows
   */
  Map<String, List<List<Object>>> expected(long count, int buckets) {
    Map<String, List<List<Object>>> rows = new LinkedHashMap<>();
    for (long id = 0; id < count; id++) {
      List<Object> values = new ArrayList<>(TestRows.values(TestRows.row(id, buckets)));
      if (id % tables == 1) {
        values.add(isWide(id) ? id * 10 : null);
      }
      rows.computeIfAbsent(table(id), t -> new ArrayList<>()).add(values);
    }
    return rows;
  }

  private static List<RowType.RowField> concat(
      List<RowType.RowField> fields, RowType.RowField field) {
    List<RowType.RowField> all = new ArrayList<>(fields);
    all.add(field);
    return all;
  }
}
