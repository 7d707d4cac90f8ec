/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.source.DeltaSourceBuilder;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.source.DeltaSourceOptions.ScanMode;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'delta'}: validates the table's options (an unknown key fails, listing the
 * valid ones; {@code hadoop.*} keys go to Hadoop, see {@link HadoopOptions}) and hands them to the
 * same {@link io.github.flinkdelta.sink.DeltaSinkBuilder} and {@link DeltaSourceBuilder} DataStream
 * jobs use. One factory makes both, so that a table read and written by one job takes both kinds of
 * options.
 */
@Internal
public final class DeltaDynamicTableFactory
    implements DynamicTableSinkFactory, DynamicTableSourceFactory {

  public static final String IDENTIFIER = "delta";

  /** The write options of a Delta table, whichever factory makes its sink. */
  public static final Set<ConfigOption<?>> WRITE_OPTIONS =
      Set.of(
          DeltaSinkOptions.APP_ID,
          DeltaSinkOptions.TARGET_FILE_SIZE,
          DeltaSinkOptions.MAX_ROWS_PER_FILE,
          DeltaSinkOptions.BUFFER_BUDGET,
          DeltaSinkOptions.COMPRESSION,
          DeltaSinkOptions.ROW_GROUP_SIZE,
          DeltaSinkOptions.PAGE_SIZE,
          DeltaSinkOptions.COMMIT_MAX_RETRIES,
          DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL,
          DeltaSinkOptions.DISTRIBUTION,
          DeltaSinkOptions.SCHEMA_EVOLUTION,
          DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING,
          DeltaSinkOptions.COMPACTION_ENABLED,
          DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS,
          DeltaSinkOptions.COMPACTION_TRIGGER_INTERVAL,
          DeltaSinkOptions.COMPACTION_TARGET_FILE_SIZE,
          DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES,
          DeltaSinkOptions.COMPACTION_MAX_BYTES_PER_RUN,
          DeltaSinkOptions.COMPACTION_DELETED_ROWS_RATIO,
          DeltaSinkOptions.UPSERT_KEY_INDEX,
          FactoryUtil.SINK_PARALLELISM);

  /** The read options of a Delta table, whichever factory makes its source. */
  public static final Set<ConfigOption<?>> READ_OPTIONS =
      Set.of(
          DeltaSourceOptions.SCAN_MODE,
          DeltaSourceOptions.STARTUP_MODE,
          DeltaSourceOptions.STARTUP_VERSION,
          DeltaSourceOptions.STARTUP_TIMESTAMP,
          DeltaSourceOptions.POLL_INTERVAL,
          DeltaSourceOptions.MAX_FILES_PER_POLL,
          DeltaSourceOptions.CHANGE_COMMITS,
          DeltaSourceOptions.MAX_PLANNING_FAILURES,
          DeltaSourceOptions.WATERMARK_COLUMN);

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options =
        new HashSet<>(
            Set.of(
                DeltaTableOptions.TABLE_PATH,
                DeltaTableOptions.UC_TABLE,
                DeltaTableOptions.TABLE_ROOT,
                DeltaTableOptions.UC_NAMESPACE,
                DeltaTableOptions.TABLE_NAME_COLUMN,
                DeltaTableOptions.TABLE_NAME_TEMPLATE,
                DynamicSinkOptions.COMMIT_PARALLELISM,
                DynamicSinkOptions.COMMIT_INTERVAL,
                DynamicSinkOptions.MAX_CACHED_TABLES,
                DynamicSinkOptions.FOLLOW_INTERVAL,
                DynamicSinkOptions.REFUSED_RECORDS,
                DynamicSinkOptions.DEAD_LETTER_TABLE,
                DeltaSinkOptions.CREATE_IF_MISSING));
    options.addAll(UnityCatalogOptions.ALL);
    options.addAll(WRITE_OPTIONS);
    options.addAll(READ_OPTIONS);
    return options;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validateExcept(HadoopOptions.PREFIX);
    String name = context.getObjectIdentifier().asSummaryString();
    ReadableConfig options = helper.getOptions();
    if (options.getOptional(DeltaTableOptions.TABLE_NAME_COLUMN).isPresent()) {
      throw new ValidationException(
          String.format(
              "Table %s writes one Delta table per value of '%s' and cannot be read; read each"
                  + " Delta table by its own path or name.",
              name, options.get(DeltaTableOptions.TABLE_NAME_COLUMN)));
    }
    Location target = target(name, options);
    Map<String, String> hadoopOptions =
        HadoopOptions.from("Table " + name, context.getCatalogTable().getOptions());
    return DeltaDynamicTableSource.of(
        name,
        readOptions(options, context),
        context,
        builder -> {
          target.applyTo(builder);
          builder.hadoopOptions(hadoopOptions);
        });
  }

  /**
   * The read options of a table, with {@code scan.mode} defaulting to how the query runs: bounded
   * in batch execution, continuous in streaming.
   */
  public static Configuration readOptions(ReadableConfig options, Context context) {
    Configuration read = new Configuration();
    for (ConfigOption<?> option : READ_OPTIONS) {
      copy(option, options, read);
    }
    if (options.getOptional(DeltaSourceOptions.SCAN_MODE).isEmpty()) {
      boolean batch =
          context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
              == RuntimeExecutionMode.BATCH;
      read.set(DeltaSourceOptions.SCAN_MODE, batch ? ScanMode.BOUNDED : ScanMode.CONTINUOUS);
    }
    return read;
  }

  private static <T> void copy(ConfigOption<T> option, ReadableConfig from, Configuration to) {
    from.getOptional(option).ifPresent(value -> to.set(option, value));
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validateExcept(HadoopOptions.PREFIX);
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> partitions = context.getCatalogTable().getPartitionKeys();
    String name = context.getObjectIdentifier().asSummaryString();
    ReadableConfig options = helper.getOptions();
    Map<String, String> hadoopOptions =
        HadoopOptions.from("Table " + name, context.getCatalogTable().getOptions());
    if (options.getOptional(DeltaTableOptions.TABLE_NAME_COLUMN).isPresent()) {
      return RoutedTables.sink(
          name, options, rowType, partitions, primaryKey(context), hadoopOptions);
    }
    Location target = target(name, options);
    return new DeltaDynamicTableSink(
        name,
        options,
        rowType,
        partitions,
        primaryKey(context),
        builder -> {
          target.applyTo(builder);
          builder.hadoopOptions(hadoopOptions);
        });
  }

  /** The columns of the table's {@code PRIMARY KEY}, or none. */
  public static List<String> primaryKey(Context context) {
    return context
        .getCatalogTable()
        .getResolvedSchema()
        .getPrimaryKey()
        .map(key -> key.getColumns())
        .orElse(List.of());
  }

  /** Where a table is: a path, or a Unity Catalog name with its connection. */
  private record Location(String path, String ucTable, UnityCatalogConnection connection) {

    void applyTo(io.github.flinkdelta.sink.DeltaSinkBuilder builder) {
      if (path != null) {
        builder.tablePath(path);
      } else {
        builder.tableName(ucTable).unityCatalog(connection);
      }
    }

    void applyTo(DeltaSourceBuilder builder) {
      if (path != null) {
        builder.tablePath(path);
      } else {
        builder.tableName(ucTable).unityCatalog(connection);
      }
    }
  }

  private static Location target(String name, ReadableConfig options) {
    Optional<String> path = options.getOptional(DeltaTableOptions.TABLE_PATH);
    Optional<String> ucTable = options.getOptional(DeltaTableOptions.UC_TABLE);
    if (path.isPresent() == ucTable.isPresent()) {
      throw new ValidationException(
          String.format(
              "Table %s needs exactly one of '%s' or '%s' (with '%s').",
              name,
              DeltaTableOptions.TABLE_PATH.key(),
              DeltaTableOptions.UC_TABLE.key(),
              UnityCatalogOptions.URI.key()));
    }
    if (path.isPresent()) {
      return new Location(path.get(), null, null);
    }
    UnityCatalogConnection connection;
    try {
      connection = UnityCatalogOptions.connection(options, "Table " + name);
    } catch (IllegalArgumentException e) {
      throw new ValidationException(e.getMessage(), e);
    }
    return new Location(null, ucTable.get(), connection);
  }
}
