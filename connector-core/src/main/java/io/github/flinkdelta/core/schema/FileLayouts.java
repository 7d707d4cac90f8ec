/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.parquet.DataColumns;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.PartitionColumn;
import io.github.flinkdelta.core.write.RowReshaper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Derives the {@link FileLayout} the writers use from a table's schema and the rows a sink
 * receives: physical names and field ids under column mapping, the statistics columns, and where
 * each column sits in the incoming row.
 */
@Internal
public final class FileLayouts {

  static final String PHYSICAL_NAME_KEY = "delta.columnMapping.physicalName";
  static final String FIELD_ID_KEY = "delta.columnMapping.id";
  static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";
  static final String NESTED_IDS_KEY = "delta.columnMapping.nested.ids";
  static final String NUM_INDEXED_COLS = "delta.dataSkippingNumIndexedCols";
  static final String STATS_COLUMNS = "delta.dataSkippingStatsColumns";

  private FileLayouts() {}

  /**
   * Checks that rows of {@code rowType} fit {@code table} and returns how writers lay them out.
   *
   * @param tableName the table, as messages name it
   * @param expectedPartitionColumns the partition columns the sink was configured with; empty to
   *     take the table's
   * @throws IllegalArgumentException listing every difference between the rows and the table
   */
  public static FileLayout forRows(
      String tableName,
      TableDefinition table,
      RowType rowType,
      List<String> expectedPartitionColumns) {
    return forRows(tableName, table, rowType, expectedPartitionColumns, false);
  }

  /**
   * As {@link #forRows(String, TableDefinition, RowType, List)}, with the partition columns also
   * written into the data files, after the data columns, when {@code materializePartitions}: what
   * the {@code materializePartitionColumns} feature and Iceberg compatibility ask of writers.
   */
  public static FileLayout forRows(
      String tableName,
      TableDefinition table,
      RowType rowType,
      List<String> expectedPartitionColumns,
      boolean materializePartitions) {
    return forRows(
        tableName, table, rowType, expectedPartitionColumns, materializePartitions, List.of());
  }

  /**
   * As {@link #forRows(String, TableDefinition, RowType, List, boolean)}, with statistics for
   * {@code clusteringColumns} (dot-separated logical paths) whatever the table's properties say.
   */
  public static FileLayout forRows(
      String tableName,
      TableDefinition table,
      RowType rowType,
      List<String> expectedPartitionColumns,
      boolean materializePartitions,
      List<String> clusteringColumns) {
    // Whatever the sink's mode, the table has been evolved by now: what is left must fit as is.
    SchemaMerge.of(tableName, table, rowType, expectedPartitionColumns, SchemaEvolution.NONE);
    return layout(tableName, table, rowType, materializePartitions, clusteringColumns);
  }

  private static FileLayout layout(
      String tableName,
      TableDefinition table,
      RowType rowType,
      boolean materializePartitions,
      List<String> clusteringColumns) {
    StructType tableSchema = table.schema();
    Map<String, String> properties = table.properties();
    Set<String> partitions = new HashSet<>(lowerCase(table.partitionColumns()));
    StatsSelection stats = StatsSelection.from(properties).always(clusteringColumns);
    RowType tableRow = DeltaTypes.toFlinkRowType(tableSchema);
    // Rows whose columns have the table's types and nested shapes are read in place; others are
    // first reshaped into rows of the table's row type.
    RowReshaper reshaper =
        RowReshaper.needed(tableRow, rowType) ? RowReshaper.of(tableRow, rowType) : null;

    List<ParquetColumn> dataColumns = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<PartitionColumn> partitionLayout = new ArrayList<>();
    for (String partition : table.partitionColumns()) {
      StructField field = tableSchema.fields().get(indexOf(tableSchema, partition));
      int position = position(rowType, field.getName());
      partitionLayout.add(
          new PartitionColumn(
              field.getName(),
              physicalName(field),
              position,
              rowType.getTypeAt(position).copy(field.isNullable())));
    }
    for (int i = 0; i < tableSchema.length(); i++) {
      StructField field = tableSchema.at(i);
      if (partitions.contains(field.getName().toLowerCase(Locale.ROOT))) {
        continue;
      }
      int position = reshaper != null ? i : position(rowType, field.getName());
      if (position < 0) {
        // A nullable column the rows lack: files leave it out, and readers see null.
        continue;
      }
      LogicalType type = reshaper != null ? tableRow.getTypeAt(i) : rowType.getTypeAt(position);
      dataColumns.add(column(field, type, field.getName(), stats, NestedIds.NONE));
      positions.add(position);
    }
    if (materializePartitions) {
      // After the data columns, without statistics: the partition values stay in the log.
      for (String partition : table.partitionColumns()) {
        int index = indexOf(tableSchema, partition);
        StructField field = tableSchema.at(index);
        int position = reshaper != null ? index : position(rowType, field.getName());
        LogicalType type =
            reshaper != null ? tableRow.getTypeAt(index) : rowType.getTypeAt(position);
        dataColumns.add(column(field, type, field.getName(), StatsSelection.NONE, NestedIds.NONE));
        positions.add(position);
      }
    }
    return new FileLayout(
        new DataColumns(
            tableName, dataColumns, positions.stream().mapToInt(Integer::intValue).toArray()),
        partitionLayout,
        reshaper);
  }

  /**
   * The ids of the array elements and map keys and values under one struct field, as column mapping
   * keeps them in the field's metadata ({@code delta.columnMapping.nested.ids}, keyed by the
   * field's physical name followed by {@code .element}, {@code .key} or {@code .value} for each
   * level), with the key of the level at hand.
   */
  private record NestedIds(FieldMetadata ids, String key) {
    static final NestedIds NONE = new NestedIds(FieldMetadata.empty(), "");

    static NestedIds of(StructField field) {
      FieldMetadata metadata = field.getMetadata();
      FieldMetadata ids =
          metadata.contains(NESTED_IDS_KEY)
              ? metadata.getMetadata(NESTED_IDS_KEY)
              : FieldMetadata.empty();
      return new NestedIds(ids, physicalName(field));
    }

    NestedIds child(String name) {
      return new NestedIds(ids, key + "." + name);
    }

    int id() {
      return ids.contains(key) ? Math.toIntExact(ids.getLong(key)) : ParquetColumn.NO_FIELD_ID;
    }
  }

  private static ParquetColumn column(
      StructField field, LogicalType queryType, String path, StatsSelection stats, NestedIds ids) {
    // The table's nullability wins: a NOT NULL table column refuses nulls the query may send.
    LogicalType type = queryType.copy(field.isNullable());
    List<ParquetColumn> children =
        children(field.getDataType(), type, path, stats, NestedIds.of(field));
    boolean collectStats =
        field.getDataType() instanceof StructType
            ? children.stream().anyMatch(ParquetColumn::collectStats)
            : stats.select(path);
    // Column mapping's ids go into the files in either mode, as the protocol asks.
    return new ParquetColumn(
        field.getName(), physicalName(field), fieldId(field), type, collectStats, children);
  }

  private static List<ParquetColumn> children(
      DataType deltaType, LogicalType flinkType, String path, StatsSelection stats, NestedIds ids) {
    List<ParquetColumn> children = new ArrayList<>();
    if (deltaType instanceof StructType struct) {
      RowType row = (RowType) flinkType;
      for (int i = 0; i < struct.length(); i++) {
        StructField child = struct.at(i);
        children.add(
            column(child, row.getTypeAt(i), path + "." + child.getName(), stats, NestedIds.NONE));
      }
    } else if (deltaType instanceof ArrayType array) {
      // As for columns, the table's nullability wins: elements and values the table declares
      // non-null ("containsNull": false, "valueContainsNull": false) refuse nulls row by row.
      LogicalType element =
          ((org.apache.flink.table.types.logical.ArrayType) flinkType)
              .getElementType()
              .copy(array.containsNull());
      children.add(nested("element", array.getElementType(), element, ids.child("element")));
    } else if (deltaType instanceof MapType map) {
      org.apache.flink.table.types.logical.MapType flinkMap =
          (org.apache.flink.table.types.logical.MapType) flinkType;
      children.add(
          nested("key", map.getKeyType(), flinkMap.getKeyType().copy(false), ids.child("key")));
      LogicalType value = flinkMap.getValueType().copy(map.isValueContainsNull());
      children.add(nested("value", map.getValueType(), value, ids.child("value")));
    }
    return children;
  }

  /** An array element or map entry: no statistics, and the name Parquet's LIST/MAP layout uses. */
  private static ParquetColumn nested(
      String name, DataType deltaType, LogicalType flinkType, NestedIds ids) {
    List<ParquetColumn> children = new ArrayList<>();
    if (deltaType instanceof StructType struct) {
      RowType row = (RowType) flinkType;
      for (int i = 0; i < struct.length(); i++) {
        StructField child = struct.at(i);
        ParquetColumn column =
            column(child, row.getTypeAt(i), child.getName(), StatsSelection.NONE, NestedIds.NONE);
        children.add(column);
      }
    } else {
      children.addAll(children(deltaType, flinkType, name, StatsSelection.NONE, ids));
    }
    return new ParquetColumn(name, name, ids.id(), flinkType, false, children);
  }

  static String physicalName(StructField field) {
    FieldMetadata metadata = field.getMetadata();
    return metadata.contains(PHYSICAL_NAME_KEY)
        ? metadata.getString(PHYSICAL_NAME_KEY)
        : field.getName();
  }

  private static int fieldId(StructField field) {
    FieldMetadata metadata = field.getMetadata();
    return metadata.contains(FIELD_ID_KEY)
        ? Math.toIntExact(metadata.getLong(FIELD_ID_KEY))
        : ParquetColumn.NO_FIELD_ID;
  }

  private static int indexOf(StructType schema, String name) {
    for (int i = 0; i < schema.length(); i++) {
      if (schema.at(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no column " + name + " in " + schema);
  }

  /** Where the rows hold column {@code name}, or -1. */
  private static int position(RowType rowType, String name) {
    List<String> names = rowType.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> lowerCase(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }
}
