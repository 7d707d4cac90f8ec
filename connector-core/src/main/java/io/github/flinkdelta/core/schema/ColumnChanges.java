/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.upsert.UpsertTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * Renames and drops of top-level columns on a table with column mapping: the schema after the
 * change and the former name it records ({@link FormerColumns}). A change the schema shows applied
 * already (the column gone, the new name there) gives nothing, so that a change sent again after a
 * failure changes nothing.
 */
@Internal
public final class ColumnChanges {

  private ColumnChanges() {}

  /**
   * A schema change and the table properties that go with it in one version.
   *
   * @param schema the table's schema after the change
   * @param properties the properties to set with it
   */
  public record Change(StructType schema, Map<String, String> properties) {}

  /**
   * Column {@code from} named {@code to}; empty when the table shows the rename applied.
   *
   * @throws IllegalArgumentException when the table has neither column, has both, or {@code from}
   *     is a partition column
   */
  public static Optional<Change> rename(
      String tableName,
      StructType schema,
      List<String> partitionColumns,
      Map<String, String> properties,
      String from,
      String to) {
    StructField column = SchemaMerge.find(schema, from);
    StructField target = SchemaMerge.find(schema, to);
    if (column == null && target != null) {
      return Optional.empty();
    }
    if (column == null) {
      throw new IllegalArgumentException(noColumn(tableName, "rename", from, schema));
    }
    if (target != null && !from.equalsIgnoreCase(to)) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot rename column '%s' of %s to '%s': the table has a column '%s' already. Drop"
                  + " or rename that one first.",
              from, tableName, to, target.getName()));
    }
    refusePartitionColumn(tableName, "rename", column, partitionColumns);
    refuseKeyColumn(tableName, "rename", column, properties);
    List<StructField> fields = new ArrayList<>();
    for (StructField field : schema.fields()) {
      fields.add(
          field == column
              ? new StructField(to, field.getDataType(), field.isNullable(), field.getMetadata())
              : field);
    }
    return Optional.of(
        new Change(
            new StructType(fields),
            Map.of(
                FormerColumns.PROPERTY,
                FormerColumns.of(properties).with(from, FileLayouts.physicalName(column)))));
  }

  /**
   * Column {@code name} dropped; empty when the table has no such column (dropped already).
   *
   * @throws IllegalArgumentException when it is a partition column or the table's last column
   */
  public static Optional<Change> drop(
      String tableName,
      StructType schema,
      List<String> partitionColumns,
      Map<String, String> properties,
      String name) {
    StructField column = SchemaMerge.find(schema, name);
    if (column == null) {
      return Optional.empty();
    }
    refusePartitionColumn(tableName, "drop", column, partitionColumns);
    refuseKeyColumn(tableName, "drop", column, properties);
    if (schema.length() == 1) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot drop column '%s' of %s: it is the table's only column. Drop the table"
                  + " instead.",
              name, tableName));
    }
    List<StructField> fields = new ArrayList<>();
    for (StructField field : schema.fields()) {
      if (field != column) {
        fields.add(field);
      }
    }
    return Optional.of(
        new Change(
            new StructType(fields),
            Map.of(
                FormerColumns.PROPERTY,
                FormerColumns.of(properties).with(name, FileLayouts.physicalName(column)))));
  }

  private static void refusePartitionColumn(
      String tableName, String change, StructField column, List<String> partitionColumns) {
    if (partitionColumns.stream().anyMatch(c -> c.equalsIgnoreCase(column.getName()))) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot %s column '%s' of %s: it is a partition column, and Delta keeps partition"
                  + " columns for the table's life. Write the rows to a new table partitioned as"
                  + " wanted.",
              change, column.getName(), tableName));
    }
  }

  private static void refuseKeyColumn(
      String tableName, String change, StructField column, Map<String, String> properties) {
    if (UpsertTables.recordedKey(properties).stream()
        .anyMatch(c -> c.equalsIgnoreCase(column.getName()))) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot %s column '%s' of %s: it is part of the table's primary key (%s), by which"
                  + " its upserts find their rows. Write the rows to a new table keyed as wanted.",
              change, column.getName(), tableName, UpsertTables.recordedKey(properties)));
    }
  }

  private static String noColumn(String tableName, String change, String name, StructType schema) {
    return String.format(
        "Cannot %s column '%s' of %s: the table has no such column (it has %s).",
        change, name, tableName, schema.fieldNames());
  }
}
