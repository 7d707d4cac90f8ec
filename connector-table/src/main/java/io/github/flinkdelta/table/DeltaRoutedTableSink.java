/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The planner's view of a {@code 'connector' = 'delta'} table in dynamic mode ({@link
 * DeltaTableOptions#TABLE_NAME_COLUMN}): each row goes to the Delta table its name column names,
 * through the dynamic sink. Insert-only, or with a primary key an upsert sink whose tables are
 * keyed by the key's other columns.
 */
@Internal
public final class DeltaRoutedTableSink implements DynamicTableSink, SupportsPartitioning {

  /** Points a dynamic sink builder at where its tables live. */
  @FunctionalInterface
  public interface Tables {
    void applyTo(DynamicDeltaSinkBuilder<RowData> builder);
  }

  private final String name;
  private final ReadableConfig options;
  private final RowType rowType;
  private final List<String> partitionColumns;
  private final List<String> primaryKey;
  private final String nameColumn;
  private final Tables tables;

  /**
   * @param name the SQL table as messages name it
   * @param options the write options, the dynamic sink's and {@code sink.parallelism}
   * @param nameColumn the column that names each row's table
   */
  public DeltaRoutedTableSink(
      String name,
      ReadableConfig options,
      RowType rowType,
      List<String> partitionColumns,
      List<String> primaryKey,
      String nameColumn,
      Tables tables) {
    this.name = name;
    this.options = options;
    this.rowType = rowType;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.primaryKey = List.copyOf(primaryKey);
    this.nameColumn = nameColumn;
    this.tables = tables;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    return primaryKey.isEmpty() ? ChangelogMode.insertOnly() : ChangelogMode.upsert();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    DynamicDeltaSinkBuilder<RowData> builder =
        DeltaSink.dynamic(
                new ColumnRoutedRows(
                    name,
                    rowType,
                    nameColumn,
                    options.get(DeltaTableOptions.TABLE_NAME_TEMPLATE),
                    partitionColumns,
                    primaryKey))
            .options(options);
    tables.applyTo(builder);
    return SinkV2Provider.of(builder.build(), options.get(FactoryUtil.SINK_PARALLELISM));
  }

  /** The planner fills the partition columns of every row with the static values. */
  @Override
  public void applyStaticPartition(Map<String, String> partition) {}

  @Override
  public DynamicTableSink copy() {
    return new DeltaRoutedTableSink(
        name, options, rowType, partitionColumns, primaryKey, nameColumn, tables);
  }

  @Override
  public String asSummaryString() {
    return "Delta[" + name + ", one table per " + nameColumn + "]";
  }
}
