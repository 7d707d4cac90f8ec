package io.github.flinkdelta.it;

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
import org.apache.hadoop.conf.Configuration;

/** Reads a Unity Catalog table back the way a catalog-aware reader does. */
final class CatalogReads {

  private CatalogReads() {}

  /** The table as the catalog knows it. */
  static UnityCatalogTable table(UnityCatalogConnection connection, String name) {
    try (UnityCatalogClient client =
        new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()))) {
      return client.find(UnityCatalogTableName.parse(name)).orElseThrow();
    }
  }

  /** Every row of the catalog's latest version of the table. */
  static List<List<Object>> rows(UnityCatalogConnection connection, String name) {
    return read(connection, name).rows();
  }

  /** The rows and the version they were read at. */
  static Read read(UnityCatalogConnection connection, String name) {
    return read(connection, name, Map.of());
  }

  /** As {@link #read(UnityCatalogConnection, String)}, with storage options such as an endpoint. */
  static Read read(
      UnityCatalogConnection connection, String name, Map<String, String> storageOptions) {
    UnityCatalogTableLocator locator =
        new UnityCatalogTableLocator(connection, table(connection, name));
    Configuration conf = locator.storageConf(HadoopConfigurations.of(storageOptions));
    Engine engine = DefaultEngine.create(conf);
    try (SnapshotSource snapshots = locator.snapshots(conf)) {
      Snapshot snapshot = snapshots.latest(engine);
      return new Read(DeltaTableReader.read(engine, snapshot), snapshot.getVersion());
    }
  }

  record Read(List<List<Object>> rows, long version) {}
}
