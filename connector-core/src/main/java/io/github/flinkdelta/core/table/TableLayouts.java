package io.github.flinkdelta.core.table;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.parquet.FileLayout;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import io.github.flinkdelta.core.parquet.PartitionColumn;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Matches an incoming Flink row type against a table's schema and derives the {@link FileLayout}
 * the writers use: physical names and field ids under column mapping, the statistics columns, and
 * where each column sits in the incoming row.
 */
final class TableLayouts {

  static final String PHYSICAL_NAME_KEY = "delta.columnMapping.physicalName";
  static final String FIELD_ID_KEY = "delta.columnMapping.id";
  static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";
  static final String NUM_INDEXED_COLS = "delta.dataSkippingNumIndexedCols";
  static final String STATS_COLUMNS = "delta.dataSkippingStatsColumns";

  private TableLayouts() {}

  /**
   * Lists how {@code rowType} differs from the table schema; empty when the rows can be written.
   * Columns are matched by name (case-insensitively, as Delta does), in any order at the top level.
   * A nullable query column may feed a NOT NULL table column: nulls are refused row by row.
   */
  static List<String> differences(StructType tableSchema, RowType rowType) {
    List<String> problems = new ArrayList<>();
    StructType query = DeltaTypes.toDeltaSchema(rowType);
    compareStructs("", tableSchema, query, problems, false);
    return problems;
  }

  static FileLayout layout(
      String tableName,
      StructType tableSchema,
      List<String> partitionColumns,
      Map<String, String> properties,
      RowType rowType) {
    Set<String> partitions = lowerCase(partitionColumns);
    boolean idMode = "id".equalsIgnoreCase(properties.get(COLUMN_MAPPING_MODE));
    StatsSelection stats = StatsSelection.from(properties);

    List<ParquetColumn> dataColumns = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<PartitionColumn> partitionLayout = new ArrayList<>();
    for (String partition : partitionColumns) {
      StructField field = field(tableSchema, partition);
      int position = position(rowType, field.getName());
      partitionLayout.add(
          new PartitionColumn(
              field.getName(),
              physicalName(field),
              position,
              rowType.getTypeAt(position).copy(field.isNullable())));
    }
    for (StructField field : tableSchema.fields()) {
      if (partitions.contains(field.getName().toLowerCase(Locale.ROOT))) {
        continue;
      }
      int position = position(rowType, field.getName());
      dataColumns.add(column(field, rowType.getTypeAt(position), field.getName(), idMode, stats));
      positions.add(position);
    }
    return new FileLayout(
        tableName,
        dataColumns,
        positions.stream().mapToInt(Integer::intValue).toArray(),
        partitionLayout);
  }

  private static ParquetColumn column(
      StructField field, LogicalType queryType, String path, boolean idMode, StatsSelection stats) {
    // The table's nullability wins: a NOT NULL table column refuses nulls the query may send.
    LogicalType type = queryType.copy(field.isNullable());
    List<ParquetColumn> children = children(field.getDataType(), type, path, idMode, stats);
    boolean collectStats =
        field.getDataType() instanceof StructType
            ? children.stream().anyMatch(ParquetColumn::collectStats)
            : stats.select(path);
    return new ParquetColumn(
        field.getName(),
        physicalName(field),
        idMode ? fieldId(field) : ParquetColumn.NO_FIELD_ID,
        type,
        collectStats,
        children);
  }

  private static List<ParquetColumn> children(
      DataType deltaType,
      LogicalType flinkType,
      String path,
      boolean idMode,
      StatsSelection stats) {
    List<ParquetColumn> children = new ArrayList<>();
    if (deltaType instanceof StructType struct) {
      RowType row = (RowType) flinkType;
      for (int i = 0; i < struct.length(); i++) {
        StructField child = struct.at(i);
        children.add(column(child, row.getTypeAt(i), path + "." + child.getName(), idMode, stats));
      }
    } else if (deltaType instanceof ArrayType array) {
      LogicalType element =
          ((org.apache.flink.table.types.logical.ArrayType) flinkType).getElementType();
      children.add(nested("element", array.getElementType(), element, idMode));
    } else if (deltaType instanceof MapType map) {
      org.apache.flink.table.types.logical.MapType flinkMap =
          (org.apache.flink.table.types.logical.MapType) flinkType;
      children.add(nested("key", map.getKeyType(), flinkMap.getKeyType().copy(false), idMode));
      children.add(nested("value", map.getValueType(), flinkMap.getValueType(), idMode));
    }
    return children;
  }

  /** An array element or map entry: no statistics, and the name Parquet's LIST/MAP layout uses. */
  private static ParquetColumn nested(
      String name, DataType deltaType, LogicalType flinkType, boolean idMode) {
    List<ParquetColumn> children = new ArrayList<>();
    if (deltaType instanceof StructType struct) {
      RowType row = (RowType) flinkType;
      for (int i = 0; i < struct.length(); i++) {
        StructField child = struct.at(i);
        ParquetColumn column =
            column(child, row.getTypeAt(i), child.getName(), idMode, StatsSelection.NONE);
        children.add(column);
      }
    } else {
      children.addAll(children(deltaType, flinkType, name, idMode, StatsSelection.NONE));
    }
    return new ParquetColumn(name, name, ParquetColumn.NO_FIELD_ID, flinkType, false, children);
  }

  /** The schema with every struct field under its physical name, as statistics are keyed. */
  static StructType physicalSchema(StructType logical) {
    List<StructField> fields = new ArrayList<>(logical.length());
    for (StructField field : logical.fields()) {
      DataType type =
          field.getDataType() instanceof StructType struct
              ? physicalSchema(struct)
              : field.getDataType();
      fields.add(new StructField(physicalName(field), type, field.isNullable()));
    }
    return new StructType(fields);
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

  private static StructField field(StructType schema, String name) {
    for (StructField field : schema.fields()) {
      if (field.getName().equalsIgnoreCase(name)) {
        return field;
      }
    }
    throw new IllegalArgumentException("no column " + name + " in " + schema);
  }

  private static int position(RowType rowType, String name) {
    List<String> names = rowType.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("the rows have no column " + name);
  }

  private static Set<String> lowerCase(List<String> names) {
    Set<String> lower = new HashSet<>();
    names.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
    return lower;
  }

  private static void compareStructs(
      String prefix, StructType table, StructType query, List<String> problems, boolean ordered) {
    for (int i = 0; i < table.length(); i++) {
      StructField expected = table.at(i);
      String path = prefix + expected.getName();
      StructField actual = find(query, expected.getName());
      if (actual == null) {
        problems.add("column '" + path + "' " + describe(expected) + " is missing from the rows");
        continue;
      }
      if (ordered && (i >= query.length() || query.at(i) != actual)) {
        problems.add("nested column '" + path + "' is not at position " + i + " in the rows");
      }
      compareTypes(path, expected.getDataType(), actual.getDataType(), problems);
    }
    for (StructField actual : query.fields()) {
      if (find(table, actual.getName()) == null) {
        problems.add(
            "column '"
                + prefix
                + actual.getName()
                + "' "
                + describe(actual)
                + " of the rows is not in the table");
      }
    }
  }

  private static void compareTypes(
      String path, DataType expected, DataType actual, List<String> problems) {
    if (expected instanceof StructType table && actual instanceof StructType query) {
      compareStructs(path + ".", table, query, problems, true);
    } else if (expected instanceof ArrayType table && actual instanceof ArrayType query) {
      compareTypes(path + ".element", table.getElementType(), query.getElementType(), problems);
    } else if (expected instanceof MapType table && actual instanceof MapType query) {
      compareTypes(path + ".key", table.getKeyType(), query.getKeyType(), problems);
      compareTypes(path + ".value", table.getValueType(), query.getValueType(), problems);
    } else if (!expected.equivalent(actual)) {
      problems.add(
          "column '" + path + "' is " + expected + " in the table but " + actual + " in the rows");
    }
  }

  private static StructField find(StructType struct, String name) {
    for (StructField field : struct.fields()) {
      if (field.getName().equalsIgnoreCase(name)) {
        return field;
      }
    }
    return null;
  }

  private static String describe(StructField field) {
    return "(" + field.getDataType() + (field.isNullable() ? "" : " NOT NULL") + ")";
  }
}
