/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.core.read.ReadFilter;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceBuilder;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.ScanMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsSourceWatermark;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;
import org.apache.flink.types.RowKind;

/**
 * The scan of a Delta table in SQL: the same {@link DeltaSource} DataStream jobs build, reading
 * only the columns the query uses. Its rows are inserts: a continuous read emits the rows each new
 * version adds.
 */
@Internal
public final class DeltaDynamicTableSource
    implements ScanTableSource,
        SupportsProjectionPushDown,
        SupportsFilterPushDown,
        SupportsLimitPushDown,
        SupportsSourceWatermark {

  private final String name;
  private final ReadableConfig options;
  private final RowType declared;
  private final Consumer<DeltaSourceBuilder> table;

  /** The table's time attribute, the column of its WATERMARK clause, or null for none. */
  private final String rowtime;

  private RowType produced;
  private ReadFilter filter;
  private long limit = -1;
  private boolean sourceWatermark;

  private DeltaDynamicTableSource(
      String name,
      ReadableConfig options,
      RowType declared,
      String rowtime,
      Consumer<DeltaSourceBuilder> table) {
    this.name = name;
    this.options = options;
    this.declared = declared;
    this.rowtime = rowtime;
    this.table = table;
    this.produced = declared;
  }

  /**
   * The scan of the table {@code context} describes, with its physical columns as declared and its
   * time attribute, through {@code table}, which names the table to the builder.
   */
  public static DeltaDynamicTableSource of(
      String name,
      ReadableConfig options,
      DynamicTableFactory.Context context,
      Consumer<DeltaSourceBuilder> table) {
    List<WatermarkSpec> watermarks =
        context.getCatalogTable().getResolvedSchema().getWatermarkSpecs();
    return new DeltaDynamicTableSource(
        name,
        options,
        (RowType) context.getPhysicalRowDataType().getLogicalType(),
        watermarks.isEmpty() ? null : watermarks.get(0).getRowtimeAttribute(),
        table);
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
    builder.columns(produced.getFieldNames().toArray(String[]::new));
    if (filter != null) {
      builder.filter(filter.toKernel(DeltaTypes.toDeltaSchema(declared)));
    }
    if (limit >= 0 && options.get(DeltaSourceOptions.SCAN_MODE) == ScanMode.BOUNDED) {
      builder.limit(limit);
    }
    if (sourceWatermark) {
      builder.watermarkColumn(rowtime);
    }
    rowtimePrecision().ifPresent(precision -> builder.timestampPrecision(rowtime, precision));
    DeltaSource source = builder.build();
    checkTypes(source.columnTypes());
    return SourceProvider.of(source);
  }

  /**
   * The precision of a read time attribute declared coarser than Delta's microseconds: the source
   * then emits it at that precision, which is the one Flink reads it at.
   */
  private Optional<Integer> rowtimePrecision() {
    int index = produced.getFieldNames().indexOf(rowtime);
    if (index < 0) {
      return Optional.empty();
    }
    LogicalType type = produced.getTypeAt(index);
    boolean timestamp =
        type.is(LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
            || type.is(LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    return timestamp && LogicalTypeChecks.getPrecision(type) < 6
        ? Optional.of(LogicalTypeChecks.getPrecision(type))
        : Optional.empty();
  }

  /** Fails unless the table's columns have the types the table's DDL declares. */
  private void checkTypes(RowType actual) {
    for (int i = 0; i < produced.getFieldCount(); i++) {
      LogicalType want = LogicalTypeUtils.removeTimeAttributes(produced.getTypeAt(i));
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

  /**
   * {@code WATERMARK FOR column AS SOURCE_WATERMARK()}: the source's own watermarks, from the
   * column's least value in each data file ({@link DeltaSourceOptions#WATERMARK_COLUMN}).
   */
  @Override
  public void applySourceWatermark() {
    if (!declared.getFieldNames().contains(rowtime)) {
      throw new ValidationException(
          String.format(
              "Table %s takes SOURCE_WATERMARK() for '%s', which is not one of the Delta table's"
                  + " columns: the source's watermarks come from a TIMESTAMP column's statistics."
                  + " Declare the watermark on such a column.",
              name, rowtime));
    }
    options
        .getOptional(DeltaSourceOptions.WATERMARK_COLUMN)
        .filter(column -> !column.equalsIgnoreCase(rowtime))
        .ifPresent(
            column -> {
              throw new ValidationException(
                  String.format(
                      "Table %s takes SOURCE_WATERMARK() for '%s' but sets '%s' = '%s'. Leave the"
                          + " option out, or declare the watermark on '%s'.",
                      name, rowtime, DeltaSourceOptions.WATERMARK_COLUMN.key(), column, column));
            });
    sourceWatermark = true;
  }

  /**
   * Takes the filters it can evaluate to skip files (Kernel's data skipping on partition values and
   * statistics) and to drop rows, but leaves every filter to Flink too: a filter on a column the
   * query does not read is then read as well.
   */
  @Override
  public Result applyFilters(List<ResolvedExpression> filters) {
    List<ResolvedExpression> accepted = new ArrayList<>();
    ReadFilter combined = null;
    for (ResolvedExpression expression : filters) {
      Optional<ReadFilter> converted = FilterConversion.of(expression);
      if (converted.isPresent()
          && produced.getFieldNames().containsAll(converted.get().columns())) {
        accepted.add(expression);
        combined =
            combined == null ? converted.get() : new ReadFilter.And(combined, converted.get());
      }
    }
    filter = combined;
    return Result.of(accepted, filters);
  }

  @Override
  public void applyLimit(long limit) {
    this.limit = limit;
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
    DeltaDynamicTableSource copy =
        new DeltaDynamicTableSource(name, options, declared, rowtime, table);
    copy.produced = produced;
    copy.sourceWatermark = sourceWatermark;
    copy.filter = filter;
    copy.limit = limit;
    return copy;
  }

  @Override
  public String asSummaryString() {
    return "Delta table " + name;
  }
}
