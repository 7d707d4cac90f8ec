/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Updates of a keyed table ({@code id}, {@code v}): element {@code i} of the source sets key {@code
 * i % keys} (or always {@code onlyKey}, when it is not negative) to {@code v = i}.
 */
final class KeyedUpdates implements DynamicRecordGenerator<RowData> {

  static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new BigIntType()}, new String[] {"id", "v"});

  private final String table;
  private final long keys;
  private final long onlyKey;
  private transient DynamicTable shape;

  KeyedUpdates(String table, long keys, long onlyKey) {
    this.table = table;
    this.keys = keys;
    this.onlyKey = onlyKey;
  }

  @Override
  public void generate(RowData element, Output out) throws Exception {
    if (shape == null) {
      shape = DynamicTable.of(table, TYPE).withPrimaryKey("id");
    }
    long i = element.getLong(0);
    GenericRowData row = GenericRowData.of(onlyKey >= 0 ? onlyKey : i % keys, i);
    row.setRowKind(RowKind.UPDATE_AFTER);
    out.collect(new DynamicRecord(shape, row));
  }

  /** The rows after elements {@code 0 .. count - 1}, by key. */
  Map<Long, List<Object>> expected(long count) {
    Map<Long, List<Object>> rows = new TreeMap<>();
    for (long i = 0; i < count; i++) {
      long key = onlyKey >= 0 ? onlyKey : i % keys;
      rows.put(key, List.of(key, i));
    }
    return rows;
  }

  /** Keys an element by the key it updates, so that a key's updates keep their order. */
  KeySelector<RowData, Long> byKey() {
    return new ByKey(keys, onlyKey);
  }

  private record ByKey(long keys, long onlyKey) implements KeySelector<RowData, Long> {
    @Override
    public Long getKey(RowData element) {
      return onlyKey >= 0 ? onlyKey : element.getLong(0) % keys;
    }
  }
}
