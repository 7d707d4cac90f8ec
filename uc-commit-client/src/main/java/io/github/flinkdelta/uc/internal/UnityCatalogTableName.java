/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import java.io.Serializable;
import java.util.Objects;

/** A three-part Unity Catalog table name, {@code catalog.schema.table}. */
public record UnityCatalogTableName(String catalog, String schema, String table)
    implements Serializable {

  public UnityCatalogTableName {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
  }

  /**
   * Parses {@code catalog.schema.table}.
   *
   * @throws IllegalArgumentException unless the name has exactly three non-empty parts
   */
  public static UnityCatalogTableName parse(String name) {
    String[] parts = name == null ? new String[0] : name.split("\\.", -1);
    if (parts.length != 3 || parts[0].isBlank() || parts[1].isBlank() || parts[2].isBlank()) {
      throw new IllegalArgumentException(
          "A Unity Catalog table name has three parts, catalog.schema.table; got '" + name + "'");
    }
    return new UnityCatalogTableName(parts[0], parts[1], parts[2]);
  }

  @Override
  public String toString() {
    return catalog + "." + schema + "." + table;
  }
}
