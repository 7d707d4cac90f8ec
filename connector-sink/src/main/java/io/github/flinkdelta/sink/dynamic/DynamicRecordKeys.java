/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.upsert.KeyColumns;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Keys a record of a table with a primary key by its table and key: {@code <table>\0<key>}, the key
 * encoded by {@link KeyColumns} as the table stores it. Each key then has one owning upsert writer,
 * and the writers' shared key index keeps each table's keys apart by the prefix.
 */
final class DynamicRecordKeys implements KeySelector<DynamicRecord, String> {

  private static final long serialVersionUID = 1L;

  /** Shapes whose key columns are kept at most; beyond it, they are looked up afresh. */
  private static final int MAX_CACHED = 10_000;

  private transient Map<DynamicTable, KeyColumns> keys;

  /** What every key of {@code table} starts with. */
  static String prefixOf(String table) {
    return table + '\0';
  }

  @Override
  public String getKey(DynamicRecord record) {
    if (keys == null) {
      keys = new IdentityHashMap<>();
    }
    DynamicTable table = record.table();
    KeyColumns key = keys.get(table);
    if (key == null) {
      if (keys.size() >= MAX_CACHED) {
        keys.clear();
      }
      key = KeyColumns.of(table.name(), table.rowType(), table.primaryKey());
      keys.put(table, key);
    }
    return prefixOf(table.name()) + key.keyOf(record.row());
  }
}
