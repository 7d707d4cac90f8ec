/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.unitycatalog.UCCatalogManagedClient;
import io.delta.kernel.unitycatalog.UCTableIdentifier;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.storage.commit.uccommitcoordinator.UCTokenBasedRestClient;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiClientBuilder;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.client.model.TableInfo;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads a Unity Catalog managed table back as any Delta reader would, with Delta Kernel and the
 * Unity Catalog client alone: the table's id and location from the catalog, its latest snapshot
 * (including commits the catalog ratified) through Kernel's catalog-managed client, and its row
 * count from the record counts its commits recorded for each data file.
 */
final class TableRows {

  /**
   * @param version the table's latest version, as the catalog ratified it
   * @param rows the rows of that version
   * @param location the table's storage location
   */
  record TableCount(long version, long rows, String location) {}

  private TableRows() {}

  static TableCount count(URI catalog, String token, String catalogSchemaTable) throws Exception {
    TokenProvider tokens = TokenProvider.create(Map.of("type", "static", "token", token));
    ApiClient api = ApiClientBuilder.create().uri(catalog).tokenProvider(tokens).build();
    TableInfo info = new TablesApi(api).getTable(catalogSchemaTable, null, null);
    String[] name = catalogSchemaTable.split("\\.");
    Engine engine = DefaultEngine.create(new Configuration());
    try (UCTokenBasedRestClient commits =
        new UCTokenBasedRestClient(catalog.toString(), tokens, Map.of())) {
      Snapshot snapshot =
          new UCCatalogManagedClient(commits)
              .loadSnapshot(
                  engine,
                  info.getTableId(),
                  info.getStorageLocation(),
                  new UCTableIdentifier(name[0], name[1], name[2]),
                  Optional.empty(),
                  Optional.empty());
      return new TableCount(snapshot.getVersion(), rows(engine, snapshot), snapshot.getPath());
    }
  }

  private static long rows(Engine engine, Snapshot snapshot) throws Exception {
    long rows = 0;
    try (CloseableIterator<FilteredColumnarBatch> files =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row add = scanFiles.next().getStruct(0);
            String stats = add.getString(add.getSchema().indexOf("stats"));
            rows += DataFileStatistics.getNumRecords(stats).orElseThrow();
          }
        }
      }
    }
    return rows;
  }
}
