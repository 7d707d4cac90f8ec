/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
