/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * One column of a data file as it is written to Parquet: the name the table knows it by, the
 * physical name and field id it has in the file (they differ when the table uses column mapping),
 * its Flink type, and whether Delta statistics are collected for it.
 *
 * <p>Children describe nested types: the fields of a {@code ROW}, the single element of an {@code
 * ARRAY}, the key and value of a {@code MAP}.
 *
 * @param logicalName the column name in the table schema
 * @param physicalName the column name in the Parquet file
 * @param fieldId the Parquet field id, or {@link #NO_FIELD_ID}
 * @param type the Flink type, whose nullability is the column's
 * @param collectStats whether min/max/nullCount statistics are kept for this column (leaves only)
 * @param children nested columns, empty for primitive types
 */
@Internal
public record ParquetColumn(
    String logicalName,
    String physicalName,
    int fieldId,
    LogicalType type,
    boolean collectStats,
    List<ParquetColumn> children)
    implements Serializable {

  /** Marks a column written without a Parquet field id. */
  public static final int NO_FIELD_ID = -1;

  public ParquetColumn {
    Objects.requireNonNull(logicalName, "logicalName");
    Objects.requireNonNull(physicalName, "physicalName");
    Objects.requireNonNull(type, "type");
    children = List.copyOf(children);
  }

  /** Whether a null is allowed in this column. */
  public boolean nullable() {
    return type.isNullable();
  }
}
