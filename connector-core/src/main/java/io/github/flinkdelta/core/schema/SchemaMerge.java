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
import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;

/**
 * A table's schema merged with the rows a sink receives, as {@link SchemaEvolution} allows.
 *
 * <p>Columns are matched by name, case-insensitively as Delta does, at every level. Whatever the
 * mode: a table column the rows lack is written as null when it is nullable; a column of the rows
 * narrower than the table's is written as the table's type; a NOT NULL column of the rows may feed
 * a nullable one; a nullable one may feed a NOT NULL one, whose nulls are refused row by row.
 * Nothing is ever dropped, renamed, narrowed or made NOT NULL, and partition columns never change.
 *
 * @param schema the table's schema after the merge; equal to the table's when nothing changes
 * @param changes what the merge changes in the table, one entry per column, for logs and messages
 * @param widensTypes whether a column's type is widened, which needs Delta's {@code typeWidening}
 */
@Internal
public record SchemaMerge(StructType schema, List<String> changes, boolean widensTypes) {

  public SchemaMerge {
    changes = List.copyOf(changes);
  }

  /** Whether the table's schema must change for the rows. */
  public boolean changesTable() {
    return !changes.isEmpty();
  }

  /**
   * Merges {@code rows} into {@code table} as {@code mode} allows.
   *
   * @param tableName the table, as messages name it
   * @param expectedPartitionColumns the partition columns the sink was configured with; empty to
   *     take the table's
   * @throws IllegalArgumentException listing every difference the mode does not allow, each with
   *     the option value that would allow it, if any
   */
  public static SchemaMerge of(
      String tableName,
      TableDefinition table,
      RowType rows,
      List<String> expectedPartitionColumns,
      SchemaEvolution mode) {
    Merger merger = new Merger(mode, lowerCase(table.partitionColumns()));
    StructType merged =
        merger.struct("", table.schema(), DeltaTypes.toDeltaSchema(rows), /* topLevel= */ true);
    if (!expectedPartitionColumns.isEmpty()
        && !lowerCase(expectedPartitionColumns).equals(lowerCase(table.partitionColumns()))) {
      merger.problems.add(
          "the sink partitions by "
              + expectedPartitionColumns
              + " but the table is partitioned by "
              + table.partitionColumns()
              + " (partition columns of an existing table cannot change)");
    }
    if (!merger.problems.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "The rows do not match Delta table %s: %s. Change the query so that its columns"
                  + " match the table, or write to another table.",
              tableName, String.join("; ", merger.problems)));
    }
    return new SchemaMerge(merged, merger.changes, merger.widensTypes);
  }

  private static List<String> lowerCase(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }

  /** One merge's walk over both schemas, collecting changes and problems. */
  private static final class Merger {
    private final SchemaEvolution mode;
    private final List<String> partitionColumns;
    private final List<String> problems = new ArrayList<>();
    private final List<String> changes = new ArrayList<>();
    private boolean widensTypes;

    Merger(SchemaEvolution mode, List<String> partitionColumns) {
      this.mode = mode;
      this.partitionColumns = partitionColumns;
    }

    StructType struct(String prefix, StructType table, StructType rows, boolean topLevel) {
      List<StructField> fields = new ArrayList<>();
      for (StructField column : table.fields()) {
        String path = prefix + column.getName();
        StructField sent = find(rows, column.getName());
        boolean partition =
            topLevel && partitionColumns.contains(column.getName().toLowerCase(Locale.ROOT));
        if (sent == null && partition) {
          problems.add(
              "partition column '"
                  + path
                  + "' is missing from the rows; every row needs its partition value");
          fields.add(column);
        } else if (sent == null) {
          if (!column.isNullable()) {
            problems.add(
                "column '"
                    + path
                    + "' "
                    + describe(column)
                    + " is missing from the rows; the table declares it NOT NULL, so the rows"
                    + " must carry it");
          }
          fields.add(column);
        } else if (partition) {
          fields.add(partitionColumn(path, column, sent));
        } else {
          fields.add(field(path, column, sent));
        }
      }
      for (StructField sent : rows.fields()) {
        if (find(table, sent.getName()) != null) {
          continue;
        }
        String path = prefix + sent.getName();
        if (mode == SchemaEvolution.NONE) {
          problems.add(
              "column '"
                  + path
                  + "' "
                  + describe(sent)
                  + " of the rows is not in the table ("
                  + hint(SchemaEvolution.ADD_COLUMNS, "to add it")
                  + ")");
        } else {
          // Rows written before have no value for it: it is nullable, and so is all below it.
          fields.add(new StructField(sent.getName(), nullable(sent.getDataType()), true));
          changes.add("add column '" + path + "' " + sent.getDataType());
        }
      }
      return new StructType(fields);
    }

    private StructField field(String path, StructField column, StructField sent) {
      boolean nullable = column.isNullable();
      if (!nullable && sent.isNullable() && mode == SchemaEvolution.WIDEN) {
        nullable = true;
        changes.add("make column '" + path + "' nullable");
      }
      DataType type = type(path, column.getDataType(), sent.getDataType());
      return new StructField(column.getName(), type, nullable, column.getMetadata())
          .withTypeChanges(column.getTypeChanges());
    }

    /** Partition values live in the log as strings: a partition column keeps its type. */
    private StructField partitionColumn(String path, StructField column, StructField sent) {
      DataType type = column.getDataType();
      if (!TypeWidenings.widensTo(sent.getDataType(), type)
          || !sameString(sent.getDataType(), type)) {
        problems.add(
            "partition column '"
                + path
                + "' is "
                + type
                + " in the table but "
                + sent.getDataType()
                + " in the rows (a partition column's type cannot change)");
      }
      return column;
    }

    private DataType type(String path, DataType table, DataType rows) {
      if (table instanceof StructType tableStruct && rows instanceof StructType rowStruct) {
        return struct(path + ".", tableStruct, rowStruct, false);
      }
      if (table instanceof ArrayType tableArray && rows instanceof ArrayType rowArray) {
        DataType element =
            type(path + ".element", tableArray.getElementType(), rowArray.getElementType());
        boolean containsNull =
            relaxed(path + ".element", tableArray.containsNull(), rowArray.containsNull());
        return new ArrayType(element, containsNull);
      }
      if (table instanceof MapType tableMap && rows instanceof MapType rowMap) {
        if (!tableMap.getKeyType().equivalent(rowMap.getKeyType())
            && !TypeWidenings.widensTo(rowMap.getKeyType(), tableMap.getKeyType())) {
          problems.add(
              "column '"
                  + path
                  + ".key' is "
                  + tableMap.getKeyType()
                  + " in the table but "
                  + rowMap.getKeyType()
                  + " in the rows (map keys cannot change)");
        }
        DataType value = type(path + ".value", tableMap.getValueType(), rowMap.getValueType());
        boolean valueContainsNull =
            relaxed(path + ".value", tableMap.isValueContainsNull(), rowMap.isValueContainsNull());
        return new MapType(tableMap.getKeyType(), value, valueContainsNull);
      }
      if (TypeWidenings.widensTo(rows, table)) {
        return table;
      }
      if (!isNested(table) && !isNested(rows) && TypeWidenings.widensTo(table, rows)) {
        if (mode == SchemaEvolution.WIDEN) {
          widensTypes = true;
          changes.add("widen column '" + path + "' from " + table + " to " + rows);
          return rows;
        }
        typeProblem(
            path,
            table,
            rows,
            " (" + hint(SchemaEvolution.WIDEN, "to widen the table's column") + ")");
        return table;
      }
      typeProblem(
          path,
          table,
          rows,
          ", and Delta widens neither into the other (write it to a new column, or to another"
              + " table)");
      return table;
    }

    private void typeProblem(String path, DataType table, DataType rows, String what) {
      problems.add(
          "column '"
              + path
              + "' is "
              + table
              + " in the table but "
              + rows
              + " in the rows"
              + what);
    }

    /** Whether nested values (elements, map values) stay nullable after the merge. */
    private boolean relaxed(String path, boolean tableAllowsNull, boolean rowsSendNull) {
      if (!tableAllowsNull && rowsSendNull && mode == SchemaEvolution.WIDEN) {
        changes.add("make '" + path + "' nullable");
        return true;
      }
      return tableAllowsNull;
    }

    private String hint(SchemaEvolution needed, String what) {
      return "set '" + TableWriteOptions.SCHEMA_EVOLUTION.key() + "' = '" + needed + "' " + what;
    }
  }

  /** {@code type} with every struct field below it nullable, as a column added later must be. */
  private static DataType nullable(DataType type) {
    if (type instanceof StructType struct) {
      List<StructField> fields = new ArrayList<>();
      for (StructField field : struct.fields()) {
        fields.add(
            new StructField(
                field.getName(), nullable(field.getDataType()), true, FieldMetadata.empty()));
      }
      return new StructType(fields);
    }
    if (type instanceof ArrayType array) {
      return new ArrayType(nullable(array.getElementType()), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new MapType(
          nullable(map.getKeyType()), nullable(map.getValueType()), map.isValueContainsNull());
    }
    return type;
  }

  private static boolean isNested(DataType type) {
    return type instanceof StructType || type instanceof ArrayType || type instanceof MapType;
  }

  /** Whether a value of {@code narrow} has the same partition string as the {@code wide} value. */
  private static boolean sameString(DataType narrow, DataType wide) {
    return narrow.equivalent(wide)
        || (TypeWidenings.isInteger(narrow) && TypeWidenings.isInteger(wide));
  }

  static StructField find(StructType struct, String name) {
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
