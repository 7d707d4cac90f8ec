package io.github.flinkdelta.it;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.uc.CatalogTable;
import io.github.flinkdelta.uc.UcTableName;
import io.github.flinkdelta.uc.UnityCatalogClient;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogTableLocator;
import java.util.List;
import java.util.Map;

/** Reads a Unity Catalog table back the way a catalog-aware reader does. */
final class CatalogReads {

  private CatalogReads() {}

  /** The table as the catalog knows it. */
  static CatalogTable table(UnityCatalogConnection connection, String name) {
    try (UnityCatalogClient client =
        new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()))) {
      return client.find(UcTableName.parse(name)).orElseThrow();
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
    try (DeltaTable delta =
        DeltaTable.open(
            new UnityCatalogTableLocator(connection, table(connection, name)),
            HadoopConfigurations.of(storageOptions))) {
      return new Read(
          DeltaTableReader.read(delta.engine(), delta.snapshot()), delta.snapshot().getVersion());
    }
  }

  record Read(List<List<Object>> rows, long version) {}
}
