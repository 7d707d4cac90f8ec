/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.schema.SchemaChanges;
import io.github.flinkdelta.core.schema.TypeWidenings;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Delta schema an {@code ALTER TABLE} of the Unity Catalog catalog asks for: Flink's table
 * changes applied in order to the table's schema, each checked against what Delta allows, so that a
 * refused change fails before anything is committed. Supported: {@code ADD} of nullable columns at
 * the end, a column's type widened as Delta's type widening allows, a column's {@code NOT NULL}
 * dropped, and column comments, kept as the field metadata {@code comment} (the key Spark uses).
 */
final class TableAlteration {

  /** The field metadata key of a column's comment. */
  static final String COMMENT = "comment";

  private static final String SUPPORTED =
      "ALTER TABLE can add nullable columns at the end, widen a column's type, drop a column's NOT"
          + " NULL and change column comments.";

  private static final String WIDENINGS =
      "Delta widens TINYINT to SMALLINT, INT, BIGINT, DOUBLE or DECIMAL; SMALLINT to INT, BIGINT,"
          + " DOUBLE or DECIMAL; INT to BIGINT, DOUBLE or DECIMAL(p >= 10); BIGINT to DECIMAL(p >="
          + " 20); FLOAT to DOUBLE; DATE to TIMESTAMP; DECIMAL(p, s) to a DECIMAL with no fewer"
          + " integer and fraction digits.";

  private final String tableName;
  private StructType schema;

  private TableAlteration(String tableName, StructType schema) {
    this.tableName = tableName;
    this.schema = schema;
  }

  /**
   * {@code schema} with {@code changes} applied.
   *
   * @param tableName the table, as messages name it
   * @throws CatalogException naming the table, the column and the reason for the first change that
   *     is refused
   */
  static StructType apply(String tableName, StructType schema, List<TableChange> changes) {
    TableAlteration alteration = new TableAlteration(tableName, schema);
    for (TableChange change : changes) {
      alteration.apply(change);
    }
    return alteration.schema;
  }

  private void apply(TableChange change) {
    if (change instanceof TableChange.AddColumn add) {
      add(add);
    } else if (change instanceof TableChange.ModifyPhysicalColumnType modify) {
      Column column = modify.getOldColumn();
      changeType(column.getName(), modify.getNewType().getLogicalType());
    } else if (change instanceof TableChange.ModifyColumnComment modify) {
      changeComment(modify.getOldColumn().getName(), modify.getNewComment());
    } else if (change instanceof TableChange.ModifyColumnName rename) {
      throw unsupported(
          "renaming column '"
              + rename.getOldColumnName()
              + "' to '"
              + rename.getNewColumnName()
              + "'");
    } else if (change instanceof TableChange.ModifyColumnPosition move) {
      throw unsupported("moving column '" + move.getOldColumn().getName() + "'");
    } else if (change instanceof TableChange.ModifyColumn modify) {
      modify(modify);
    } else if (change instanceof TableChange.DropColumn drop) {
      throw unsupported("dropping column '" + drop.getColumnName() + "'");
    } else {
      throw unsupported(String.valueOf(change));
    }
  }

  private void add(TableChange.AddColumn add) {
    Column column = add.getColumn();
    if (!column.isPhysical()) {
      throw refused(
          "column '"
              + column.getName()
              + "' is computed or metadata; a Delta table stores physical columns only.");
    }
    TableChange.ColumnPosition position = add.getPosition();
    if (position != null && !isAtEnd(position)) {
      throw unsupported("adding column '" + column.getName() + "' at " + position);
    }
    StructField field =
        withComment(
            deltaField(column.getName(), column.getDataType().getLogicalType()),
            column.getComment().orElse(null));
    try {
      schema = SchemaChanges.withAddedColumns(tableName, schema, List.of(field));
    } catch (IllegalArgumentException e) {
      // The message names the table and the column.
      throw new CatalogException(e.getMessage(), e);
    }
  }

  /** A change of a column as a whole ({@code TableChange.modify}), as far as it is supported. */
  private void modify(TableChange.ModifyColumn modify) {
    Column before = modify.getOldColumn();
    Column after = modify.getNewColumn();
    if (!before.getName().equals(after.getName())) {
      throw unsupported("renaming column '" + before.getName() + "' to '" + after.getName() + "'");
    }
    if (modify.getNewPosition() != null) {
      throw unsupported("moving column '" + before.getName() + "'");
    }
    if (!after.isPhysical()) {
      throw refused(
          "column '"
              + after.getName()
              + "' cannot become computed or metadata; a Delta table stores physical columns only.");
    }
    changeType(before.getName(), after.getDataType().getLogicalType());
    changeComment(before.getName(), after.getComment().orElse(null));
  }

  private void changeType(String name, LogicalType newType) {
    int index = indexOf(name);
    StructField field = schema.at(index);
    DataType from = field.getDataType();
    DataType to = deltaField(name, newType).getDataType();
    String fromText = describe(field);
    String toText = newType.copy(true).asSummaryString();
    if (field.isNullable() && !newType.isNullable()) {
      throw refused(
          "column '"
              + name
              + "' cannot become NOT NULL: rows already in the table may hold nulls in it.");
    }
    if (!from.equivalent(to)) {
      if (isNested(from) || isNested(to)) {
        throw typeChangeRefused(
            name,
            fromText,
            toText,
            "Delta widens primitive types only, and nested fields are not reachable through"
                + " ALTER TABLE.");
      }
      if (!TypeWidenings.widensTo(from, to)) {
        String why =
            TypeWidenings.widensTo(to, from)
                ? "that narrows it, and values already in the table may not fit"
                : "Delta cannot read the values already in the table as the new type";
        throw typeChangeRefused(name, fromText, toText, why + ". " + WIDENINGS);
      }
    }
    StructField changed =
        new StructField(
                field.getName(),
                from.equivalent(to) ? from : to,
                newType.isNullable(),
                field.getMetadata())
            .withTypeChanges(field.getTypeChanges());
    replace(index, changed);
  }

  private void changeComment(String name, String comment) {
    int index = indexOf(name);
    replace(index, withComment(schema.at(index), comment));
  }

  private void replace(int index, StructField field) {
    List<StructField> fields = new ArrayList<>(schema.fields());
    fields.set(index, field);
    schema = new StructType(fields);
  }

  private int indexOf(String name) {
    List<StructField> fields = schema.fields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw refused("it has no column '" + name + "'.");
  }

  private boolean isAtEnd(TableChange.ColumnPosition position) {
    return position instanceof TableChange.After after
        && schema.length() > 0
        && schema.at(schema.length() - 1).getName().equalsIgnoreCase(after.column());
  }

  private String describe(StructField field) {
    return DeltaTypes.toFlinkRowType(new StructType().add(field.getName(), field.getDataType()))
        .getTypeAt(0)
        .asSummaryString();
  }

  private StructField deltaField(String name, LogicalType type) {
    try {
      return DeltaTypes.toDeltaSchema(RowType.of(new LogicalType[] {type}, new String[] {name}))
          .at(0);
    } catch (IllegalArgumentException e) {
      throw new CatalogException("Cannot alter " + tableName + ": " + e.getMessage(), e);
    }
  }

  /** A change that is supported but not with these columns or types. */
  private CatalogException refused(String why) {
    return new CatalogException("Cannot alter " + tableName + ": " + why);
  }

  private CatalogException typeChangeRefused(String column, String from, String to, String why) {
    return refused(
        "the type of column '"
            + column
            + "' cannot change from "
            + from
            + " to "
            + to
            + ": "
            + why);
  }

  /** A kind of change that is not supported at all. */
  private CatalogException unsupported(String what) {
    return new CatalogException(
        "Cannot alter " + tableName + ": " + what + " is not supported. " + SUPPORTED);
  }

  /** {@code field} with {@code comment} as its comment; none when it is null or empty. */
  static StructField withComment(StructField field, String comment) {
    FieldMetadata.Builder metadata = FieldMetadata.builder().fromMetadata(field.getMetadata());
    if (comment == null || comment.isEmpty()) {
      metadata.remove(COMMENT);
    } else {
      metadata.putString(COMMENT, comment);
    }
    return field.withNewMetadata(metadata.build());
  }

  private static boolean isNested(DataType type) {
    return type instanceof StructType || type instanceof ArrayType || type instanceof MapType;
  }
}
