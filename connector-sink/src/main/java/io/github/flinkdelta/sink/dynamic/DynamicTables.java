/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The tables of a {@link DynamicDeltaSink} seen from outside its operators, e.g. from a coordinator
 * that prepares a table before its records arrive: a table is created and evolved exactly as the
 * sink's writers would for a record of the same shape, and what a table holds now can be read. One
 * instance per caller; not for concurrent use.
 */
@Internal
public final class DynamicTables implements Serializable {

  private static final long serialVersionUID = 1L;

  private final DynamicSinkConfig config;

  private transient DynamicTableResolver resolver;
  private transient TableChangeApplier changes;

  DynamicTables(DynamicSinkConfig config) {
    this.config = config;
  }

  /**
   * Creates table {@code shape.name()} when it is missing, and evolves it to {@code shape} as the
   * sink's options allow: what the sink's first record of that shape would do.
   *
   * @throws IllegalArgumentException when the table cannot take rows of the shape, naming why
   */
  public void prepare(DynamicTable shape) {
    resolver().resolve(shape);
  }

  /**
   * Renames or drops a column of an existing table through column mapping, as the sink's writers
   * apply such a change; a table that has the change already is left as it is, so the writers may
   * apply the same change after this.
   *
   * @throws IllegalArgumentException for a change other than a column's rename or drop
   * @throws IllegalStateException when the table cannot take the change, naming why
   */
  public void apply(TableChange change) throws IOException {
    if (!(change instanceof TableChange.RenameColumn)
        && !(change instanceof TableChange.DropColumn)) {
      throw new IllegalArgumentException(
          "Only a column's rename or drop applies here, not " + change);
    }
    if (changes == null) {
      changes = new TableChangeApplier(config, resolver());
    }
    changes.apply(change, null);
  }

  /**
   * Adds nullable column {@code column} of {@code type} to existing table {@code name}, right
   * before its column {@code before} (at the end when null), in a version of its own, for sources
   * that say where a column goes; a table that has the column already is left as it is. The sink's
   * writers match rows to the table's columns by name, so rows of either shape go on being written.
   *
   * @throws IllegalArgumentException when the table has no column {@code before}, or when its
   *     options do not let it take new columns, naming why
   */
  public void addColumn(String name, String column, LogicalType type, String before)
      throws IOException {
    Configuration options = config.optionsOf(name);
    if (options.get(DeltaSinkOptions.SCHEMA_EVOLUTION) == SchemaEvolution.NONE) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot add column '%s' to table %s, whose '%s' is 'none'. Set it to 'add-columns'"
                  + " or 'widen' to take new columns.",
              column, name, DeltaSinkOptions.SCHEMA_EVOLUTION.key()));
    }
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table = resolver().open(name)) {
      table
          .metadata()
          .addColumn(
              new StructField(column, DeltaTypes.toDeltaType(type), true),
              before,
              options.get(DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING));
    }
    resolver().forget(name);
  }

  private DynamicTableResolver resolver() {
    if (resolver == null) {
      resolver = new DynamicTableResolver(config);
    }
    return resolver;
  }

  /** Table {@code name} as it is now; empty when it does not exist. */
  public Optional<Current> current(String name) {
    try (var loader = ConnectorClassLoader.enter()) {
      org.apache.hadoop.conf.Configuration conf = config.hadoopConf();
      Optional<TableLocator> found = config.names().reference(name).find(conf);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      try (DeltaTable table = DeltaTable.open(TableRequest.of(found.get(), conf))) {
        Snapshot snapshot = table.snapshot();
        return Optional.of(
            new Current(
                table.name(),
                DeltaTypes.toFlinkRowType(snapshot.getSchema()),
                UpsertTables.recordedKey(snapshot.getTableProperties()),
                List.copyOf(snapshot.getPartitionColumnNames())));
      }
    }
  }

  /** How table {@code name} follows new row shapes, by the sink's options and the table's own. */
  public SchemaEvolution schemaEvolution(String name) {
    return config.optionsOf(name).get(DeltaSinkOptions.SCHEMA_EVOLUTION);
  }

  /**
   * What a table holds now.
   *
   * @param name the table's full name (catalog name, or its location)
   * @param rowType its columns, by their current names
   * @param primaryKey the key it records for upserts; empty for a table that appends
   * @param partitionColumns its partition columns
   */
  public record Current(
      String name, RowType rowType, List<String> primaryKey, List<String> partitionColumns) {}
}
