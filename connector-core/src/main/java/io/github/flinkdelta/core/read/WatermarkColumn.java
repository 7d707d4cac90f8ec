/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.kernel.ColumnMappings;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * The timestamp column whose least value in each data file, by the file's statistics, orders a
 * read's files and bounds its watermarks.
 *
 * <p>Delta writers keep a timestamp's statistics truncated to milliseconds, so a file's minimum is
 * never above the least value it holds. Statistics are keyed by the column's physical name; they
 * are parsed by Kernel's {@link DataFileStatistics} with the column's physical type.
 *
 * @param name the column's name in the table
 * @param physicalName the column's name in the data files and their statistics
 * @param withoutTimeZone whether the column is {@code TIMESTAMP_NTZ} rather than {@code TIMESTAMP}
 */
@Internal
public record WatermarkColumn(String name, String physicalName, boolean withoutTimeZone)
    implements Serializable {

  /** A file's least timestamp when its statistics do not give one. */
  public static final long UNKNOWN = Long.MIN_VALUE;

  /**
   * The column {@code name} of a table with {@code schema}.
   *
   * @throws IllegalArgumentException naming the table and the column unless it is a timestamp
   *     column with statistics, that is a data column and not a partition column
   */
  public static WatermarkColumn of(
      String tableName, StructType schema, List<String> partitionColumns, String name) {
    StructField field = ReadColumns.field(schema, name);
    if (field == null) {
      throw new IllegalArgumentException(
          String.format(
              "Delta table %s has no column %s to take watermarks from; its columns are %s",
              tableName, name, schema.fieldNames()));
    }
    if (partitionColumns.stream().anyMatch(p -> p.equalsIgnoreCase(field.getName()))) {
      throw new IllegalArgumentException(
          String.format(
              "Column '%s' of Delta table %s is a partition column, which has no statistics to take"
                  + " watermarks from. Choose a data column.",
              field.getName(), tableName));
    }
    DataType type = field.getDataType();
    if (!(type instanceof TimestampType) && !(type instanceof TimestampNTZType)) {
      throw new IllegalArgumentException(
          String.format(
              "Column '%s' of Delta table %s is %s: watermarks come from a TIMESTAMP or"
                  + " TIMESTAMP_NTZ column's statistics. Choose such a column.",
              field.getName(), tableName, type));
    }
    return new WatermarkColumn(
        field.getName(), ColumnMappings.physicalName(field), type instanceof TimestampNTZType);
  }

  /**
   * The least value of this column in the file of {@code add}, in milliseconds since the epoch, or
   * {@link #UNKNOWN} when the file has no statistics of it (or only nulls).
   */
  public long minMillis(AddAction add) {
    DataType type = withoutTimeZone ? TimestampNTZType.TIMESTAMP_NTZ : TimestampType.TIMESTAMP;
    Optional<DataFileStatistics> stats;
    try {
      stats = add.stats(new StructType().add(physicalName, type));
    } catch (RuntimeException e) {
      // Statistics another writer got wrong only cost this file its place in the order.
      return UNKNOWN;
    }
    Literal min = stats.map(s -> s.getMinValues().get(new Column(physicalName))).orElse(null);
    return min == null || min.getValue() == null
        ? UNKNOWN
        : Math.floorDiv((Long) min.getValue(), 1000L);
  }
}
