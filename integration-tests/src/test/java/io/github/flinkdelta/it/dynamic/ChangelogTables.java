/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Splits a {@link Changelog} over {@code tables} tables with the primary key {@code id},
 * partitioned by {@code bucket}: key {@code k}'s changes go to {@code <prefix>t<k % tables>}. Every
 * change is also appended, as an {@code INSERT}, to the table {@code <prefix>audit}, which has no
 * key.
 */
public final class ChangelogTables implements DynamicRecordGenerator<RowData> {

  private final String prefix;
  private final int tables;
  private transient DynamicTable[] keyed;
  private transient DynamicTable audit;

  public ChangelogTables(String prefix, int tables) {
    this.prefix = prefix;
    this.tables = tables;
  }

  @Override
  public void generate(RowData change, Output out) throws Exception {
    if (keyed == null) {
      keyed = new DynamicTable[tables];
      for (int t = 0; t < tables; t++) {
        keyed[t] =
            DynamicTable.of(prefix + "t" + t, Changelog.TYPE)
                .withPrimaryKey("id")
                .withPartitionColumns("bucket");
      }
      audit = DynamicTable.of(prefix + "audit", Changelog.TYPE);
    }
    out.collect(new DynamicRecord(keyed[(int) (change.getLong(0) % tables)], change));
    GenericRowData appended =
        GenericRowData.of(
            change.getLong(0), change.getInt(1), change.getLong(2), change.getString(3));
    appended.setRowKind(RowKind.INSERT);
    out.collect(new DynamicRecord(audit, appended));
  }

  /** Keys a change by its key, so that a key's changes keep their order into the sink. */
  public static KeySelector<RowData, Long> byKey() {
    return new ById();
  }

  private static final class ById implements KeySelector<RowData, Long> {
    @Override
    public Long getKey(RowData change) {
      return change.getLong(0);
    }
  }

  /** The rows each keyed table holds after {@code count} changes of {@code changelog}, by name. */
  public Map<String, Map<Long, List<Object>>> expected(Changelog changelog, long count) {
    Map<String, Map<Long, List<Object>>> byTable = new LinkedHashMap<>();
    for (int t = 0; t < tables; t++) {
      byTable.put(prefix + "t" + t, new TreeMap<>());
    }
    changelog
        .expected(count)
        .forEach((key, row) -> byTable.get(prefix + "t" + (key % tables)).put(key, row));
    return byTable;
  }
}
