/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.internal.types.DataTypeJsonSerDe;
import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.internal.util.ColumnMapping.ColumnMappingMode;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Delta's column mapping as Kernel's own scans follow it, through its internal {@code
 * ColumnMapping}, and schemas in Kernel's JSON form ({@code DataTypeJsonSerDe}, internal too):
 * Kernel's public API offers neither (TableReadTest fails when they change).
 */
@Internal
public final class ColumnMappings {

  /** The key of a field's metadata that holds its Parquet field id. */
  public static final String PARQUET_FIELD_ID_KEY = ColumnMapping.PARQUET_FIELD_ID_KEY;

  private ColumnMappings() {}

  /** The name of the column mapping mode {@code tableProperties} set ({@code NONE} when none). */
  public static String modeOf(Map<String, String> tableProperties) {
    return ColumnMapping.getColumnMappingMode(tableProperties).name();
  }

  /** Whether {@code mode}, a name {@link #modeOf} gave, maps no columns. */
  public static boolean isNone(String mode) {
    return ColumnMappingMode.valueOf(mode) == ColumnMappingMode.NONE;
  }

  /** The name of {@code field} in the data files. */
  public static String physicalName(StructField field) {
    return ColumnMapping.getPhysicalName(field);
  }

  /** The fields {@code data} of {@code table} as the data files name them, in mode {@code mode}. */
  public static StructType physicalSchema(StructType data, StructType table, String mode) {
    return ColumnMapping.convertToPhysicalSchema(data, table, ColumnMappingMode.valueOf(mode));
  }

  /** A schema from Kernel's JSON form ({@code StructType.toJson}). */
  public static StructType schemaFromJson(String json) {
    return DataTypeJsonSerDe.deserializeStructType(json);
  }
}
