/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops of a dynamic sink's tables, by identity: a drop names the table it drops by the id its
 * metadata carries ({@link DeltaTable#id()}), so that a drop sent again after a failure leaves
 * alone the table created under the same name since, and the records that follow a drop wait until
 * the name no longer stands for the dropped table.
 */
final class TableDrops {

  private static final Logger LOG = LoggerFactory.getLogger(TableDrops.class);

  private final DynamicSinkConfig config;

  TableDrops(DynamicSinkConfig config) {
    this.config = config;
  }

  /** The id of the table {@code name} stands for now; null when there is none. */
  String idOf(String name) {
    try (var loader = ConnectorClassLoader.enter()) {
      Optional<TableLocator> found = config.names().reference(name).find(config.hadoopConf());
      if (found.isEmpty()) {
        return null;
      }
      try (DeltaTable table = DeltaTable.open(TableRequest.of(found.get(), config.hadoopConf()))) {
        return table.id();
      }
    }
  }

  /** Whether {@code name} still stands for the table of id {@code id}. */
  boolean stillHolds(String name, String id) {
    return id.equals(idOf(name));
  }

  /**
   * Drops table {@code name} if it is still the table of id {@code id}.
   *
   * @return false when the name stands for no table or for another one: the drop was done before
   */
  boolean dropIfStill(String name, String id) {
    if (!stillHolds(name, id)) {
      LOG.info("Table {} (id {}) is dropped already", config.names().fullName(name), id);
      return false;
    }
    try (var loader = ConnectorClassLoader.enter()) {
      config.names().drop(name, config.hadoopConf());
    }
    LOG.info("Dropped table {} (id {}), as its source did", config.names().fullName(name), id);
    return true;
  }
}
