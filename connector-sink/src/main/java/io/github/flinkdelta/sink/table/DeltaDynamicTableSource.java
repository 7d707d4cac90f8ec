package io.github.flinkdelta.sink.table;

import io.github.flinkdelta.core.config.DeltaSourceOptions;
import io.github.flinkdelta.core.config.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.core.config.DeltaSourceOptions.ScanMode;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The scan of a Delta table in SQL: the same {@link DeltaSource} DataStream jobs build, reading
 * only the columns the query uses. Its rows are inserts: a continuous read emits the rows each new
 * version adds.
 */
@Internal
public final class DeltaDynamicTableSource implements ScanTableSource, SupportsProjectionPushDown {

  private final String name;
  private final ReadableConfig options;
  private final RowType declared;
  private final Consumer<DeltaSourceBuilder> table;
  private RowType produced;

  public DeltaDynamicTableSource(
      String name, ReadableConfig options, RowType declared, Consumer<DeltaSourceBuilder> table) {
    this.name = name;
    this.options = options;
    this.declared = declared;
    this.table = table;
    this.produced = declared;
  }

  /** Inserts, and deletes too when a continuous read emits a table's changes. */
  @Override
  public ChangelogMode getChangelogMode() {
    boolean changes =
        options.get(DeltaSourceOptions.SCAN_MODE) == ScanMode.CONTINUOUS
            && options.get(DeltaSourceOptions.CHANGE_COMMITS) == ChangeCommits.CHANGELOG;
    return changes
        ? ChangelogMode.newBuilder()
            .addContainedKind(RowKind.INSERT)
            .addContainedKind(RowKind.DELETE)
            .build()
        : ChangelogMode.insertOnly();
  }

  @Override
  public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
    DeltaSourceBuilder builder = DeltaSource.builder().options(options);
    table.accept(builder);
    DeltaSource source = builder.columns(produced.getFieldNames().toArray(String[]::new)).build();
    checkTypes(source.columnTypes());
    return SourceProvider.of(source);
  }

  /** Fails unless the table's columns have the types the table's DDL declares. */
  private void checkTypes(RowType actual) {
    for (int i = 0; i < produced.getFieldCount(); i++) {
      LogicalType want = produced.getTypeAt(i);
      LogicalType have = actual.getTypeAt(i);
      if (!want.copy(true).equals(have.copy(true))) {
        throw new ValidationException(
            String.format(
                "Table %s declares column '%s' as %s, but the Delta table holds %s. Declare it as"
                    + " %s.",
                name,
                produced.getFieldNames().get(i),
                want.asSummaryString(),
                have.asSummaryString(),
                have.copy(want.isNullable()).asSummaryString()));
      }
    }
  }

  @Override
  public boolean supportsNestedProjection() {
    return false;
  }

  @Override
  public void applyProjection(int[][] projectedFields, DataType producedDataType) {
    List<RowType.RowField> fields = declared.getFields();
    produced =
        new RowType(Arrays.stream(projectedFields).map(path -> fields.get(path[0])).toList());
  }

  @Override
  public DynamicTableSource copy() {
    DeltaDynamicTableSource copy = new DeltaDynamicTableSource(name, options, declared, table);
    copy.produced = produced;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "Delta table " + name;
  }
}
