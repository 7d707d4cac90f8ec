/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.delta.serde.DeltaDataTypeModule;
import io.unitycatalog.client.model.CreateStagingTable;
import io.unitycatalog.client.model.CreateTable;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.StagingTableInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableType;
import java.util.Map;

/** The real Unity Catalog client, pointed at a test server. */
final class TestClients {

  private TestClients() {}

  static ApiClient client(UnityCatalogServer server, String token) {
    ApiClient client = new ApiClient();
    // As the client's own ApiClientBuilder does: Delta types on the wire as Delta writes them.
    client.setObjectMapper(client.getObjectMapper().registerModule(new DeltaDataTypeModule()));
    client.updateBaseUri(server.uri() + UnityCatalogServer.API_BASE);
    if (token != null) {
      client.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + token));
    }
    return client;
  }

  /** Creates a managed table the way a Delta writer does: staging table, then table. */
  static TableInfo createManagedTable(ApiClient client, String catalog, String schema, String name)
      throws Exception {
    TablesApi tables = new TablesApi(client);
    StagingTableInfo staging =
        tables.createStagingTable(
            new CreateStagingTable().name(name).catalogName(catalog).schemaName(schema));
    return tables.createTable(
        new CreateTable()
            .name(name)
            .catalogName(catalog)
            .schemaName(schema)
            .tableType(TableType.MANAGED)
            .dataSourceFormat(DataSourceFormat.DELTA)
            .storageLocation(staging.getStagingLocation())
            .properties(Map.of(CatalogApi.TABLE_ID_PROPERTY, staging.getId())));
  }
}
