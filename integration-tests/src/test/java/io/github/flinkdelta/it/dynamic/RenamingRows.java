/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The rows of one table whose source renames a column and drops another mid-stream, as a change
 * data source reports it. Rows before id {@code changeAt} carry {@code (id, bucket, payload,
 * old_name)}; with the row {@code changeAt} come the rename of {@code old_name} to {@code new_name}
 * and the drop of {@code payload}, and on the first attempt a failure in the same call, so that the
 * rows between the last completed checkpoint and the change are sent again to a table that has
 * changed. Rows up to {@code lateUntil} still come in the old shape (a producer that lags behind
 * the change), the rest in the new shape {@code (id, bucket, new_name)}.
 */
final class RenamingRows implements DynamicRecordGenerator<RowData> {

  static final RowType OLD =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new IntType(),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "payload", "old_name"});

  static final RowType NEW =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "new_name"});

  private final String table;
  private final long changeAt;
  private final long lateUntil;
  private final FaultCounter injected;
  private transient DynamicTable oldShape;
  private transient DynamicTable newShape;

  RenamingRows(String table, long changeAt, long lateUntil, FaultCounter injected) {
    this.table = table;
    this.changeAt = changeAt;
    this.lateUntil = lateUntil;
    this.injected = injected;
  }

  @Override
  public void generate(RowData row, Output out) throws Exception {
    if (oldShape == null) {
      oldShape = DynamicTable.of(table, OLD);
      newShape = DynamicTable.of(table, NEW);
    }
    long id = row.getLong(0);
    int bucket = row.getInt(1);
    StringData value = StringData.fromString(value(id));
    if (id == changeAt) {
      out.apply(TableChange.renameColumn(table, "old_name", "new_name"));
      out.apply(TableChange.dropColumn(table, "payload"));
    }
    if (id < changeAt || (id > changeAt && id <= lateUntil)) {
      out.collect(
          new DynamicRecord(oldShape, GenericRowData.of(id, bucket, row.getString(2), value)));
    } else {
      out.collect(new DynamicRecord(newShape, GenericRowData.of(id, bucket, value)));
    }
    if (id == changeAt && injected.count() == 0) {
      injected.fire();
      throw new IllegalStateException("Injected failure right after the schema change");
    }
  }

  static String value(long id) {
    return "v-" + id;
  }

  /** The rows the table holds once every id below {@code count} is written. */
  static List<List<Object>> expected(long count, int buckets) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      rows.add(List.of(id, (int) (id % buckets), value(id)));
    }
    return rows;
  }
}
