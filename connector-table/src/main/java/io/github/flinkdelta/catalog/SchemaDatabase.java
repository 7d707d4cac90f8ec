/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.catalog.CatalogDatabase;

/** A Unity Catalog schema as a Flink database. */
record SchemaDatabase(Map<String, String> properties, String comment) implements CatalogDatabase {

  @Override
  public Map<String, String> getProperties() {
    return properties;
  }

  @Override
  public String getComment() {
    return comment;
  }

  @Override
  public CatalogDatabase copy() {
    return this;
  }

  @Override
  public CatalogDatabase copy(Map<String, String> newProperties) {
    return new SchemaDatabase(Map.copyOf(newProperties), comment);
  }

  @Override
  public Optional<String> getDescription() {
    return Optional.ofNullable(comment);
  }

  @Override
  public Optional<String> getDetailedDescription() {
    return getDescription();
  }
}
