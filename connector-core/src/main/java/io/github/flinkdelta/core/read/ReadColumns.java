/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.github.flinkdelta.core.kernel.ColumnMappings;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The columns a reader takes from a table's files, in the order it emits them, resolved against the
 * table's schema: which are read from Parquet (under their physical names and field ids) and which
 * are partition values.
 *
 * <p>The physical schema comes from Kernel's internal column mapping, the rule Kernel's own scans
 * follow, and the schema travels as Kernel's JSON (internal too), both through {@link
 * ColumnMappings}: Kernel's public API offers neither. {@code DeltaSourceITCase} reads
 * column-mapped tables and fails when either changes.
 */
@Internal
public final class ReadColumns implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String tableName;
  private final String tableRoot;
  private final String schemaJson;
  private final String columnMappingMode;
  private final List<String> partitionColumns;
  private final List<String> columns;

  /** The timestamp columns rows hold at a lower precision than Delta's microseconds. */
  private final Map<String, Integer> timestampPrecisions;

  private transient Resolved resolved;

  private ReadColumns(
      String tableName,
      String tableRoot,
      String schemaJson,
      String columnMappingMode,
      List<String> partitionColumns,
      List<String> columns,
      Map<String, Integer> timestampPrecisions) {
    this.tableName = tableName;
    this.tableRoot = tableRoot;
    this.schemaJson = schemaJson;
    this.columnMappingMode = columnMappingMode;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.columns = List.copyOf(columns);
    this.timestampPrecisions = Map.copyOf(timestampPrecisions);
  }

  /**
   * The columns {@code names} of the table as {@code snapshot} has it (every column when {@code
   * names} is empty), matched case-insensitively as Delta does.
   *
   * @throws IllegalArgumentException naming the table and every column it does not have
   */
  public static ReadColumns of(String tableName, Snapshot snapshot, List<String> names) {
    StructType schema = snapshot.getSchema();
    List<String> resolvedNames = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : names.isEmpty() ? schema.fieldNames() : names) {
      StructField field = field(schema, name);
      if (field == null) {
        missing.add(name);
      } else {
        resolvedNames.add(field.getName());
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "Delta table %s has no column %s; its columns are %s",
              tableName, String.join(", ", missing), schema.fieldNames()));
    }
    return new ReadColumns(
        tableName,
        snapshot.getPath(),
        schema.toJson(),
        ColumnMappings.modeOf(snapshot.getTableProperties()),
        snapshot.getPartitionColumnNames(),
        resolvedNames,
        Map.of());
  }

  /**
   * These columns with the timestamp column {@code column} of type {@code TIMESTAMP(precision)} (0
   * to 6) instead of Delta's microseconds, as a SQL time attribute, which has at most milliseconds,
   * is declared. At a precision of 3 or less rows hold the values in milliseconds, their
   * microseconds dropped, as Flink's own serializers hold them.
   *
   * @throws IllegalArgumentException naming the table and column when the column is not a timestamp
   *     column read, or the precision is out of range
   */
  public ReadColumns withTimestampPrecision(String column, int precision) {
    String name =
        columns.stream()
            .filter(c -> c.equalsIgnoreCase(column))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        String.format(
                            "Delta table %s: column '%s' is not read; the columns read are %s",
                            tableName, column, columns)));
    DataType type = field(resolved().table, name).getDataType();
    if (!(type instanceof TimestampType || type instanceof TimestampNTZType)
        || precision < 0
        || precision > 6) {
      throw new IllegalArgumentException(
          String.format(
              "Delta table %s: column '%s' of type %s cannot be read at timestamp precision %d;"
                  + " a precision of 0 to 6 applies to TIMESTAMP and TIMESTAMP_NTZ columns",
              tableName, name, type, precision));
    }
    Map<String, Integer> precisions = new HashMap<>(timestampPrecisions);
    precisions.put(name, precision);
    return new ReadColumns(
        tableName, tableRoot, schemaJson, columnMappingMode, partitionColumns, columns, precisions);
  }

  /** The table as messages name it. */
  public String tableName() {
    return tableName;
  }

  /** The table's root location. */
  public String tableRoot() {
    return tableRoot;
  }

  /** The names of the columns read, in the order rows hold them. */
  public List<String> names() {
    return columns;
  }

  /** The type of the rows read. */
  public RowType rowType() {
    return resolved().rowType;
  }

  /** The table's schema these columns were resolved against. */
  public StructType tableSchema() {
    return resolved().table;
  }

  /** These columns resolved against another version's schema of the same table. */
  public ReadColumns against(Snapshot snapshot) {
    ReadColumns against = of(tableName, snapshot, columns);
    return new ReadColumns(
        against.tableName,
        against.tableRoot,
        against.schemaJson,
        against.columnMappingMode,
        against.partitionColumns,
        against.columns,
        timestampPrecisions);
  }

  Resolved resolved() {
    if (resolved == null) {
      resolved = new Resolved(ColumnMappings.schemaFromJson(schemaJson));
    }
    return resolved;
  }

  /** The field of {@code schema} named {@code name}, matched case-insensitively, or null. */
  static StructField field(StructType schema, String name) {
    for (StructField field : schema.fields()) {
      if (field.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return field;
      }
    }
    return null;
  }

  /** The columns as a reader uses them. */
  final class Resolved {
    final StructType table;
    final StructType logical;

    /**
     * The Parquet columns read: the data columns under their physical names, strings as binary
     * ({@link ColumnValues}).
     */
    final StructType physical;

    /** For each column read, its index in {@link #physical}, or -1 for a partition column. */
    final int[] physicalIndex;

    /** For each column read, the key of its partition value, or null for a data column. */
    final String[] partitionKey;

    final DataType[] types;

    /** The type of the rows read, in Flink's types. */
    final RowType rowType;

    /** For each column read, how its values are read from the Parquet columns. */
    final ColumnValues[] values;

    private Resolved(StructType table) {
      this.table = table;
      List<StructField> fields = new ArrayList<>();
      StructType data = new StructType();
      physicalIndex = new int[columns.size()];
      partitionKey = new String[columns.size()];
      types = new DataType[columns.size()];
      for (int i = 0; i < columns.size(); i++) {
        StructField field = Objects.requireNonNull(field(table, columns.get(i)), columns.get(i));
        fields.add(field);
        types[i] = field.getDataType();
        if (isPartitionColumn(field.getName())) {
          physicalIndex[i] = -1;
          partitionKey[i] =
              ColumnMappings.isNone(columnMappingMode)
                  ? field.getName()
                  : ColumnMappings.physicalName(field);
        } else {
          physicalIndex[i] = data.length();
          data = data.add(field);
        }
      }
      this.logical = new StructType(fields);
      this.rowType = withPrecisions(DeltaTypes.toFlinkRowType(logical));
      this.physical =
          data.length() == 0
              ? new StructType().add(StructField.DEFAULT_ROW_INDEX_COLUMN)
              : ColumnValues.readSchema(
                  ColumnMappings.physicalSchema(data, table, columnMappingMode));
      this.values = new ColumnValues[types.length];
      for (int i = 0; i < types.length; i++) {
        values[i] = ColumnValues.of(types[i]);
      }
    }

    private RowType withPrecisions(RowType type) {
      List<RowType.RowField> fields = new ArrayList<>();
      for (RowType.RowField field : type.getFields()) {
        Integer precision = timestampPrecisions.get(field.getName());
        LogicalType fieldType = field.getType();
        if (precision != null) {
          fieldType =
              fieldType instanceof LocalZonedTimestampType
                  ? new LocalZonedTimestampType(fieldType.isNullable(), precision)
                  : new org.apache.flink.table.types.logical.TimestampType(
                      fieldType.isNullable(), precision);
        }
        fields.add(new RowType.RowField(field.getName(), fieldType));
      }
      return new RowType(type.isNullable(), fields);
    }

    private boolean isPartitionColumn(String name) {
      return partitionColumns.stream().anyMatch(p -> p.equalsIgnoreCase(name));
    }
  }
}
