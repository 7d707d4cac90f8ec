/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import java.io.Serializable;
import java.util.Objects;

/**
 * A table as the catalog knows it.
 *
 * @param name its three-part name
 * @param id the catalog's table id
 * @param location the table's storage location
 * @param managed whether the catalog ratifies its commits (a managed table)
 */
public record UnityCatalogTable(
    UnityCatalogTableName name, String id, String location, boolean managed)
    implements Serializable {
  public UnityCatalogTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(location, "location");
  }
}
