/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * A table named {@code catalog.schema.table} in a Unity Catalog server: found by its name, or
 * created as a managed table whose every commit the catalog ratifies.
 *
 * @param createsSchema whether creating the table creates its schema first when the catalog lacks
 *     it (the dynamic sink's tables); otherwise a missing schema fails the creation
 */
public record UnityCatalogTableReference(
    UnityCatalogConnection connection, UnityCatalogTableName tableName, boolean createsSchema)
    implements TableReference {

  public UnityCatalogTableReference {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(tableName, "tableName");
  }

  /** A table whose schema must exist for it to be created. */
  public UnityCatalogTableReference(
      UnityCatalogConnection connection, UnityCatalogTableName tableName) {
    this(connection, tableName, false);
  }

  @Override
  public String name() {
    return tableName.toString();
  }

  @Override
  public String description() {
    return describe(connection, tableName);
  }

  static String describe(UnityCatalogConnection connection, UnityCatalogTableName name) {
    return "table " + name + " in Unity Catalog at " + connection.endpoint();
  }

  /**
   * The table, if the catalog has it. The locator carries the commit API detected here, so that
   * tasks never probe the catalog for it.
   */
  @Override
  public Optional<TableLocator> find(Configuration conf) {
    try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
      UnityCatalogConnection detected = connection.withCommitApi(client.commitApi());
      return client.find(tableName).map(table -> new UnityCatalogTableLocator(detected, table));
    }
  }

  /** Creates a managed table (staging table, version 0 through Kernel, registration). */
  @Override
  public TableLocator create(Configuration conf, TableDefinition definition) {
    try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
      if (createsSchema) {
        client.ensureSchema(tableName);
      }
      UnityCatalogTable table =
          client.createManagedTable(
              conf,
              tableName,
              definition.schema(),
              definition.partitionColumns(),
              definition.properties());
      return new UnityCatalogTableLocator(connection.withCommitApi(client.commitApi()), table);
    }
  }
}
