/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.PartitionColumn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Whether a table, as another writer may have changed it since the sink was built, still reads the
 * files the sink writes. Columns are followed by their physical names, as readers find them in the
 * files: a column another writer added reads as null in them, and a type it widened reads their
 * narrower values; a column dropped or renamed under them, a narrowed type or new partition columns
 * would make them wrong.
 */
@Internal
public final class FileSchemaCheck {

  private FileSchemaCheck() {}

  /**
   * Every way in which {@code schema} and {@code partitionColumns} no longer read files of {@code
   * layout}; empty when they do.
   */
  public static List<String> problems(
      FileLayout layout, StructType schema, List<String> partitionColumns) {
    List<String> problems = new ArrayList<>();
    List<String> filePartitions =
        layout.partitionColumns().stream().map(c -> c.name().toLowerCase(Locale.ROOT)).toList();
    List<String> tablePartitions =
        partitionColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
    if (!filePartitions.equals(tablePartitions)) {
      problems.add(
          "the table is partitioned by "
              + partitionColumns
              + " but the job writes partitions of "
              + layout.partitionColumns().stream().map(PartitionColumn::name).toList());
    }
    Set<String> matched = new HashSet<>();
    for (PartitionColumn column : layout.partitionColumns()) {
      StructField field = byPhysicalName(schema, column.directoryName());
      if (field == null) {
        problems.add("partition column '" + column.name() + "' is no longer in the table");
      } else {
        matched.add(column.directoryName());
      }
    }
    columns("", layout.dataColumns(), schema, matched, problems);
    return problems;
  }

  private static void columns(
      String prefix,
      List<ParquetColumn> columns,
      StructType struct,
      Set<String> matched,
      List<String> problems) {
    for (ParquetColumn column : columns) {
      String path = prefix + column.logicalName();
      StructField field = byPhysicalName(struct, column.physicalName());
      if (field == null) {
        problems.add(
            "column '" + path + "' that the job writes was dropped from the table (or renamed)");
        continue;
      }
      matched.add(column.physicalName());
      if (!field.getName().equalsIgnoreCase(column.logicalName())) {
        problems.add("column '" + path + "' was renamed to '" + prefix + field.getName() + "'");
      }
      type(path, column, field.getDataType(), problems);
    }
    for (StructField field : struct.fields()) {
      if (!matched.contains(FileLayouts.physicalName(field)) && !field.isNullable()) {
        problems.add(
            "column '"
                + prefix
                + field.getName()
                + "' was added as NOT NULL, and the job's rows have no value for it");
      }
    }
  }

  private static void type(
      String path, ParquetColumn column, DataType tableType, List<String> problems) {
    LogicalType written = column.type();
    if (tableType instanceof StructType struct && written instanceof RowType) {
      columns(path + ".", column.children(), struct, new HashSet<>(), problems);
    } else if (tableType instanceof ArrayType array
        && written instanceof org.apache.flink.table.types.logical.ArrayType) {
      type(path + ".element", column.children().get(0), array.getElementType(), problems);
    } else if (tableType instanceof MapType map
        && written instanceof org.apache.flink.table.types.logical.MapType) {
      type(path + ".key", column.children().get(0), map.getKeyType(), problems);
      type(path + ".value", column.children().get(1), map.getValueType(), problems);
    } else {
      DataType writtenType = DeltaTypes.toDeltaType(written);
      if (!TypeWidenings.widensTo(writtenType, tableType)) {
        problems.add(
            "column '"
                + path
                + "' is "
                + tableType
                + " in the table now, but the job writes it as "
                + writtenType);
      }
    }
  }

  /**
   * A column the table declares NOT NULL (or an array's elements, a map's values) where the job's
   * files may hold nulls: another writer tightened it after the sink was built.
   *
   * @param path the column as messages name it
   * @param statsPath the physical path of a leaf column under which Delta statistics count its
   *     nulls; empty when statistics cannot tell (a struct, elements, values)
   */
  public record TightenedColumn(String path, List<String> statsPath) {}

  /** The columns {@code schema} declares NOT NULL whose values the job's files may hold null. */
  public static List<TightenedColumn> tightened(FileLayout layout, StructType schema) {
    List<TightenedColumn> tightened = new ArrayList<>();
    tightened("", List.of(), layout.dataColumns(), schema, true, tightened);
    return tightened;
  }

  private static void tightened(
      String prefix,
      List<String> statsPrefix,
      List<ParquetColumn> columns,
      StructType struct,
      boolean statsKnown,
      List<TightenedColumn> tightened) {
    for (ParquetColumn column : columns) {
      StructField field = byPhysicalName(struct, column.physicalName());
      if (field == null) {
        continue;
      }
      String path = prefix + column.logicalName();
      List<String> statsPath = new ArrayList<>(statsPrefix);
      statsPath.add(column.physicalName());
      if (!field.isNullable() && column.nullable()) {
        boolean leaf = column.children().isEmpty();
        tightened.add(
            new TightenedColumn(
                path, leaf && statsKnown && column.collectStats() ? statsPath : List.of()));
      }
      nestedTightened(path, statsPath, column, field.getDataType(), statsKnown, tightened);
    }
  }

  private static void nestedTightened(
      String path,
      List<String> statsPath,
      ParquetColumn column,
      DataType tableType,
      boolean statsKnown,
      List<TightenedColumn> tightened) {
    if (tableType instanceof StructType struct) {
      tightened(path + ".", statsPath, column.children(), struct, statsKnown, tightened);
    } else if (tableType instanceof ArrayType array && !column.children().isEmpty()) {
      ParquetColumn element = column.children().get(0);
      if (!array.containsNull() && element.nullable()) {
        tightened.add(new TightenedColumn(path + ".element", List.of()));
      }
      nestedTightened(
          path + ".element", List.of(), element, array.getElementType(), false, tightened);
    } else if (tableType instanceof MapType map && column.children().size() == 2) {
      ParquetColumn value = column.children().get(1);
      if (!map.isValueContainsNull() && value.nullable()) {
        tightened.add(new TightenedColumn(path + ".value", List.of()));
      }
      nestedTightened(path + ".value", List.of(), value, map.getValueType(), false, tightened);
    }
  }

  private static StructField byPhysicalName(StructType struct, String physicalName) {
    for (StructField field : struct.fields()) {
      if (FileLayouts.physicalName(field).equals(physicalName)) {
        return field;
      }
    }
    return null;
  }
}
