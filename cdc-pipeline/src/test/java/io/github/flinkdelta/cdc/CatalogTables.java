/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogTable;
import io.github.flinkdelta.uc.internal.UnityCatalogTableLocator;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/** Unity Catalog tables read back as a catalog-aware reader reads them. */
final class CatalogTables {

  private CatalogTables() {}

  /** The table as the catalog knows it; empty when the catalog has no such table. */
  static Optional<UnityCatalogTable> find(UnityCatalogConnection connection, String name) {
    try (UnityCatalogClient client =
        new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()))) {
      return client.find(UnityCatalogTableName.parse(name));
    }
  }

  /** The rows of the catalog's latest version of the table, and that version. */
  static Read read(UnityCatalogConnection connection, String name) {
    UnityCatalogTableLocator locator =
        new UnityCatalogTableLocator(connection, find(connection, name).orElseThrow());
    Configuration conf = locator.storageConf(HadoopConfigurations.of(Map.of()));
    Engine engine = DefaultEngine.create(conf);
    try (SnapshotSource snapshots = locator.snapshots(conf)) {
      Snapshot snapshot = snapshots.latest(engine);
      return new Read(DeltaTableReader.read(engine, snapshot), snapshot.getVersion());
    }
  }

  record Read(List<List<Object>> rows, long version) {}
}
