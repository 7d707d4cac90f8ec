/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;

/**
 * Checks a {@code 'connector' = 'delta'} table in dynamic mode and makes its sink: a STRING name
 * column, and exactly one of a path root or a Unity Catalog namespace.
 */
final class RoutedTables {

  private RoutedTables() {}

  static DeltaRoutedTableSink sink(
      String name,
      ReadableConfig options,
      RowType rowType,
      List<String> partitions,
      List<String> primaryKey,
      Map<String, String> hadoopOptions) {
    String column = options.get(DeltaTableOptions.TABLE_NAME_COLUMN);
    int index = rowType.getFieldIndex(column);
    if (index < 0
        || !rowType
            .getTypeAt(index)
            .getTypeRoot()
            .getFamilies()
            .contains(LogicalTypeFamily.CHARACTER_STRING)) {
      throw new ValidationException(
          String.format(
              "Table %s: '%s' = '%s' must name a STRING column of the table (it has %s).",
              name, DeltaTableOptions.TABLE_NAME_COLUMN.key(), column, rowType));
    }
    if (partitions.contains(column)) {
      throw new ValidationException(
          String.format(
              "Table %s: its table-name column '%s' cannot be a partition column; it is not"
                  + " written.",
              name, column));
    }
    if (options.getOptional(DeltaTableOptions.TABLE_PATH).isPresent()
        || options.getOptional(DeltaTableOptions.UC_TABLE).isPresent()) {
      throw new ValidationException(
          String.format(
              "Table %s names its tables by '%s': give '%s' or '%s' instead of '%s' or '%s'.",
              name,
              column,
              DeltaTableOptions.TABLE_ROOT.key(),
              DeltaTableOptions.UC_NAMESPACE.key(),
              DeltaTableOptions.TABLE_PATH.key(),
              DeltaTableOptions.UC_TABLE.key()));
    }
    Optional<String> root = options.getOptional(DeltaTableOptions.TABLE_ROOT);
    Optional<String> namespace = options.getOptional(DeltaTableOptions.UC_NAMESPACE);
    if (root.isPresent() == namespace.isPresent()) {
      throw new ValidationException(
          String.format(
              "Table %s needs exactly one of '%s' or '%s' (with '%s').",
              name,
              DeltaTableOptions.TABLE_ROOT.key(),
              DeltaTableOptions.UC_NAMESPACE.key(),
              UnityCatalogOptions.URI.key()));
    }
    DeltaRoutedTableSink.Tables tables;
    if (root.isPresent()) {
      tables = builder -> builder.tableRoot(root.get()).hadoopOptions(hadoopOptions);
    } else {
      UnityCatalogConnection connection;
      try {
        connection = UnityCatalogOptions.connection(options, "Table " + name);
      } catch (IllegalArgumentException e) {
        throw new ValidationException(e.getMessage(), e);
      }
      tables =
          builder ->
              builder
                  .unityCatalog(connection)
                  .defaultNamespace(namespace.get())
                  .hadoopOptions(hadoopOptions);
    }
    return new DeltaRoutedTableSink(name, options, rowType, partitions, primaryKey, column, tables);
  }
}
