/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.github.flinkdelta.uc.internal.UnityCatalogTableReference;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The table a sink or source builder names: a path, or a Unity Catalog name with the connection to
 * its catalog (given, or from {@link UnityCatalogOptions}). Checked once for both builders.
 */
@Internal
public final class TableTarget {

  private final String tablePath;
  private final String tableName;
  private final UnityCatalogConnection connection;

  private TableTarget(String tablePath, String tableName, UnityCatalogConnection connection) {
    this.tablePath = tablePath;
    this.tableName = tableName;
    this.connection = connection;
  }

  /**
   * The target the builder's settings name, adding to {@code problems} whatever is missing or
   * invalid.
   *
   * @param role what the table is for, in messages: e.g. "DeltaSink"
   */
  public static TableTarget of(
      String role,
      String tablePath,
      String tableName,
      UnityCatalogConnection unityCatalog,
      ReadableConfig options,
      List<String> problems) {
    if ((tablePath == null || tablePath.isBlank()) == (tableName == null)) {
      problems.add(
          "set either tablePath(\"file:///...\" or \"s3a://...\") or"
              + " tableName(\"catalog.schema.table\") with unityCatalog(...)");
    }
    UnityCatalogConnection connection = unityCatalog;
    if (tableName != null) {
      try {
        UnityCatalogTableName.parse(tableName);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
      if (connection == null && UnityCatalogOptions.isSet(options)) {
        try {
          connection = UnityCatalogOptions.connection(options, role + " for " + tableName);
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
        }
      } else if (connection == null) {
        problems.add(
            "set unityCatalog(...) (or the option '"
                + UnityCatalogOptions.URI.key()
                + "') to the server that holds "
                + tableName);
      }
    }
    return new TableTarget(tablePath, tableName, connection);
  }

  /** The table as messages name it before it is found. */
  public String name() {
    return tablePath != null ? tablePath : tableName;
  }

  /** The table to find or create; only once {@link #of} reported no problem. */
  public TableReference reference() {
    return tableName == null
        ? new PathTableLocator(tablePath)
        : new UnityCatalogTableReference(connection, UnityCatalogTableName.parse(tableName));
  }
}
