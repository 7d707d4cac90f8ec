package io.github.flinkdelta.sink.table;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.sink.UnityCatalogOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'delta'}: validates the table's options (an unknown key fails, listing the
 * valid ones; {@code hadoop.*} keys go to Hadoop, see {@link HadoopOptions}) and hands them to the
 * same {@link io.github.flinkdelta.sink.DeltaSinkBuilder} DataStream jobs use.
 */
@Internal
public final class DeltaDynamicTableSinkFactory implements DynamicTableSinkFactory {

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
                DeltaSinkOptions.CREATE_IF_MISSING));
    options.addAll(UnityCatalogOptions.ALL);
    options.addAll(WRITE_OPTIONS);
    return options;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validateExcept(HadoopOptions.PREFIX);
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> partitions = context.getCatalogTable().getPartitionKeys();
    String name = context.getObjectIdentifier().asSummaryString();
    ReadableConfig options = helper.getOptions();
    DeltaDynamicTableSink.Target target = target(name, options);
    Map<String, String> hadoopOptions = HadoopOptions.from(context.getCatalogTable().getOptions());
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

  private static DeltaDynamicTableSink.Target target(String name, ReadableConfig options) {
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
      return builder -> builder.tablePath(path.get());
    }
    UnityCatalogConnection connection;
    try {
      connection = UnityCatalogOptions.connection(options, "Table " + name);
    } catch (IllegalArgumentException e) {
      throw new ValidationException(e.getMessage(), e);
    }
    return builder -> builder.tableName(ucTable.get()).unityCatalog(connection);
  }
}
