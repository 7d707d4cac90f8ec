/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The planner's view of a Delta table: an insert-only sink, or with a primary key an upsert sink
 * (inserts, updates after and deletes, which may carry the key alone). Where the rows go (a path,
 * or a Unity Catalog table and its connection) is decided by the factory that made it.
 */
@Internal
public final class DeltaDynamicTableSink implements DynamicTableSink, SupportsPartitioning {

  /** Points a sink builder at the table. */
  @FunctionalInterface
  public interface Target {
    void applyTo(DeltaSinkBuilder builder);
  }

  private final String name;
  private final ReadableConfig options;
  private final RowType rowType;
  private final List<String> partitionColumns;
  private final List<String> primaryKey;
  private final Target target;

  /**
   * @param name the table as messages name it
   * @param options the write options ({@link io.github.flinkdelta.sink.DeltaSinkOptions} and {@code
   *     sink.parallelism})
   * @param primaryKey the table's primary key columns, or empty for an appending sink
   */
  public DeltaDynamicTableSink(
      String name,
      ReadableConfig options,
      RowType rowType,
      List<String> partitionColumns,
      List<String> primaryKey,
      Target target) {
    this.name = name;
    this.options = options;
    this.rowType = rowType;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.primaryKey = List.copyOf(primaryKey);
    this.target = target;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    // An upsert changelog needs no UPDATE_BEFORE: an UPDATE_AFTER replaces the key's row.
    return primaryKey.isEmpty() ? ChangelogMode.insertOnly() : ChangelogMode.upsert();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    DeltaSinkBuilder builder =
        DeltaSink.builder()
            .rowType(rowType)
            .partitionColumns(partitionColumns.toArray(String[]::new))
            .options(options);
    if (!primaryKey.isEmpty()) {
      builder.primaryKey(primaryKey.toArray(String[]::new));
    }
    target.applyTo(builder);
    return SinkV2Provider.of(builder.build(), options.get(FactoryUtil.SINK_PARALLELISM));
  }

  /**
   * Static partitions ({@code INSERT INTO t PARTITION (p = 1)}) need nothing here: the planner
   * fills the partition columns of every row with their values.
   */
  @Override
  public void applyStaticPartition(Map<String, String> partition) {}

  @Override
  public DynamicTableSink copy() {
    return new DeltaDynamicTableSink(name, options, rowType, partitionColumns, primaryKey, target);
  }

  @Override
  public String asSummaryString() {
    return "Delta[" + name + "]";
  }
}
