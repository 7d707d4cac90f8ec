/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
