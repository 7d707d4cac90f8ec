package io.github.flinkdelta.sink.table;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/** The planner's view of a {@code 'connector' = 'delta'} table: an insert-only Delta sink. */
@Internal
final class DeltaDynamicTableSink implements DynamicTableSink, SupportsPartitioning {

  private final String name;
  private final ReadableConfig options;
  private final RowType rowType;
  private final List<String> partitionColumns;

  DeltaDynamicTableSink(
      String name, ReadableConfig options, RowType rowType, List<String> partitionColumns) {
    this.name = name;
    this.options = options;
    this.rowType = rowType;
    this.partitionColumns = List.copyOf(partitionColumns);
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    return ChangelogMode.insertOnly();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    DeltaSinkBuilder builder =
        DeltaSink.builder()
            .rowType(rowType)
            .partitionColumns(partitionColumns.toArray(String[]::new))
            .options(options);
    Optional<String> path = options.getOptional(DeltaTableOptions.TABLE_PATH);
    Optional<String> ucTable = options.getOptional(DeltaTableOptions.UC_TABLE);
    if (path.isPresent() == ucTable.isPresent()) {
      throw new ValidationException(
          String.format(
              "Table %s needs exactly one of '%s' or '%s' (with '%s').",
              name,
              DeltaTableOptions.TABLE_PATH.key(),
              DeltaTableOptions.UC_TABLE.key(),
              DeltaTableOptions.UC_URI.key()));
    }
    if (path.isPresent()) {
      builder.tablePath(path.get());
    } else {
      String uri =
          options
              .getOptional(DeltaTableOptions.UC_URI)
              .orElseThrow(
                  () ->
                      new ValidationException(
                          String.format(
                              "Table %s sets '%s' but not '%s'.",
                              name,
                              DeltaTableOptions.UC_TABLE.key(),
                              DeltaTableOptions.UC_URI.key())));
      builder
          .tableName(ucTable.get())
          .unityCatalog(
              new UnityCatalogConnection(
                  URI.create(uri),
                  Secret.of(options.getOptional(DeltaTableOptions.UC_TOKEN).orElse(""))));
    }
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
    return new DeltaDynamicTableSink(name, options, rowType, partitionColumns);
  }

  @Override
  public String asSummaryString() {
    return "Delta";
  }
}
