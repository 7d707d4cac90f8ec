/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static io.github.flinkdelta.testkit.CommitRulesTest.assertStatus;
import static io.github.flinkdelta.testkit.CommitRulesTest.commitRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.CatalogsApi;
import io.unitycatalog.client.api.DeltaCommitsApi;
import io.unitycatalog.client.api.SchemasApi;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.api.TemporaryCredentialsApi;
import io.unitycatalog.client.model.CreateCatalog;
import io.unitycatalog.client.model.CreateSchema;
import io.unitycatalog.client.model.CreateTable;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.DeltaGetCommits;
import io.unitycatalog.client.model.GenerateTemporaryTableCredential;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableOperation;
import io.unitycatalog.client.model.TableType;
import io.unitycatalog.client.model.TemporaryCredentials;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Catalog browsing, authentication, fault injection, persistence and credential vending. */
class ServerBehaviourTest {

  @TempDir Path dir;

  @Test
  void catalogsSchemasAndTablesCanBeCreatedListedAndDeleted() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      ApiClient client = TestClients.client(server, null);
      assertThat(new CatalogsApi(client).listCatalogs(null, null).getCatalogs())
          .extracting("name")
          .containsExactly("main");
      new CatalogsApi(client).createCatalog(new CreateCatalog().name("sales"));
      new SchemasApi(client).createSchema(new CreateSchema().name("eu").catalogName("sales"));
      TableInfo table = TestClients.createManagedTable(client, "sales", "eu", "orders");

      assertThat(new TablesApi(client).getTable("sales.eu.orders", null, null).getTableId())
          .isEqualTo(table.getTableId());
      assertThat(new TablesApi(client).listTables("sales", "eu", null, null).getTables())
          .extracting("name")
          .containsExactly("orders");
      assertStatus(() -> new SchemasApi(client).getSchema("sales.nope"), 404);
      assertStatus(
          () -> new CatalogsApi(client).createCatalog(new CreateCatalog().name("sales")), 400);

      new TablesApi(client).deleteTable("sales.eu.orders");
      assertStatus(() -> new TablesApi(client).getTable("sales.eu.orders", null, null), 404);
    }
  }

  @Test
  void bearerTokenIsRequiredWhenConfigured() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).token("s3cr3t").build().start()) {
      assertStatus(
          () -> new CatalogsApi(TestClients.client(server, null)).listCatalogs(null, null), 401);
      assertStatus(
          () -> new CatalogsApi(TestClients.client(server, "wrong")).listCatalogs(null, null), 403);
      assertThat(
              new CatalogsApi(TestClients.client(server, "s3cr3t"))
                  .listCatalogs(null, null)
                  .getCatalogs())
          .isNotEmpty();
      // The error never echoes a token.
      HttpResponse<String> denied =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(server.uri() + UnityCatalogServer.API_BASE + "/catalogs"))
                      .header("Authorization", "Bearer wrong-token-value")
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(denied.statusCode()).isEqualTo(403);
      assertThat(denied.body()).contains("PERMISSION_DENIED").doesNotContain("wrong-token-value");
    }
  }

  @Test
  void aReadOnlyTokenReadsButCannotModify() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder()
            .storageRoot(dir)
            .token("writer")
            .readOnlyToken("reader")
            .build()
            .start()) {
      TableInfo table =
          TestClients.createManagedTable(
              TestClients.client(server, "writer"), "main", "default", "t");
      ApiClient reader = TestClients.client(server, "reader");

      assertThat(new TablesApi(reader).getTable("main.default.t", null, null).getTableId())
          .isEqualTo(table.getTableId());
      TemporaryCredentialsApi credentials = new TemporaryCredentialsApi(reader);
      credentials.generateTemporaryTableCredentials(
          new GenerateTemporaryTableCredential()
              .tableId(table.getTableId())
              .operation(TableOperation.READ));
      assertStatus(
          () ->
              credentials.generateTemporaryTableCredentials(
                  new GenerateTemporaryTableCredential()
                      .tableId(table.getTableId())
                      .operation(TableOperation.READ_WRITE)),
          403);
      assertStatus(
          () ->
              new DeltaCommitsApi(reader)
                  .commit(
                      commitRequest(table.getTableId(), table.getStorageLocation(), 1, "1.json")),
          403);
      assertStatus(() -> new TablesApi(reader).deleteTable("main.default.t"), 403);
      assertThat(server.latestVersion("main.default.t")).isZero();
    }
  }

  @Test
  void injectedFailuresDropsAndDelays() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "t");
      DeltaCommitsApi commits = new DeltaCommitsApi(client);
      String endpoint = "POST /delta/preview/commits";

      // A plain ApiClient does not retry: the failure reaches the caller, unapplied.
      server.faults().failNext(endpoint, 1, 503);
      assertStatus(
          () ->
              commits.commit(
                  commitRequest(table.getTableId(), table.getStorageLocation(), 1, "a.json")),
          503);
      assertThat(server.latestVersion("main.default.t")).isZero();
      assertThat(server.faults().calls(endpoint)).isEqualTo(1);

      // Applied, but the response is lost: the client sees an I/O failure.
      server.faults().dropResponseOfNext(endpoint, 1);
      HttpResponse<String> dropped = null;
      try {
        dropped =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(
                            URI.create(
                                server.uri()
                                    + UnityCatalogServer.API_BASE
                                    + "/delta/preview/commits"))
                        .POST(
                            HttpRequest.BodyPublishers.ofString(
                                "{\"table_id\":\""
                                    + table.getTableId()
                                    + "\",\"table_uri\":\""
                                    + table.getStorageLocation()
                                    + "\",\"commit_info\":{\"version\":1,\"timestamp\":1,"
                                    + "\"file_name\":\"a.json\",\"file_size\":1,"
                                    + "\"file_modification_timestamp\":1}}"))
                        .header("Content-Type", "application/json")
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
      } catch (java.io.IOException expected) {
        // connection closed without a response
      }
      assertThat(dropped).isNull();
      assertThat(server.latestVersion("main.default.t")).isEqualTo(1);
      assertThat(
              commits
                  .getCommits(
                      new DeltaGetCommits()
                          .tableId(table.getTableId())
                          .tableUri(table.getStorageLocation())
                          .startVersion(0L))
                  .getCommits())
          .extracting("fileName")
          .containsExactly("a.json");

      server.faults().delay("GET /catalogs", Duration.ofMillis(300));
      long started = System.nanoTime();
      new CatalogsApi(client).listCatalogs(null, null);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThan(Duration.ofMillis(290));
      assertThat(server.faults().calls(endpoint)).isEqualTo(2);
    }
  }

  @Test
  void persistedStateSurvivesARestart() throws Exception {
    Path state = dir.resolve("state");
    String tableId;
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).stateDirectory(state).build().start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "kept");
      tableId = table.getTableId();
      new DeltaCommitsApi(client)
          .commit(commitRequest(tableId, table.getStorageLocation(), 1, "a.json"));
    }
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).stateDirectory(state).build().start()) {
      ApiClient client = TestClients.client(server, null);
      assertThat(new TablesApi(client).getTable("main.default.kept", null, null).getTableId())
          .isEqualTo(tableId);
      assertThat(server.latestVersion("main.default.kept")).isEqualTo(1);
    }
  }

  @Test
  void s3TablesGetVendedCredentialsWithAnExpiry() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder()
            .storageRoot(URI.create("s3://bucket/warehouse"))
            .s3Credentials(
                new UnityCatalogServer.S3Credentials(
                    "AKIA-TEST", "secret-key", "session", Duration.ofMinutes(5)))
            .build()
            .start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "s3t");
      assertThat(table.getStorageLocation()).startsWith("s3://bucket/warehouse/tables/");
      TemporaryCredentials credentials =
          new TemporaryCredentialsApi(client)
              .generateTemporaryTableCredentials(
                  new GenerateTemporaryTableCredential()
                      .tableId(table.getTableId())
                      .operation(TableOperation.READ_WRITE));
      assertThat(credentials.getAwsTempCredentials().getAccessKeyId()).isEqualTo("AKIA-TEST");
      assertThat(credentials.getExpirationTime()).isGreaterThan(System.currentTimeMillis());
    }
  }

  @Test
  void aStagingTableIsUsedUpByItsTableButItsCredentialsOutliveIt() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "once");
      // As on UC OSS 0.6.0: a second table from the same staging table is a failed precondition.
      assertThatThrownBy(
              () ->
                  new TablesApi(client)
                      .createTable(
                          new CreateTable()
                              .name("twice")
                              .catalogName("main")
                              .schemaName("default")
                              .tableType(TableType.MANAGED)
                              .dataSourceFormat(DataSourceFormat.DELTA)
                              .storageLocation(table.getStorageLocation())
                              .properties(
                                  Map.of(CatalogApi.TABLE_ID_PROPERTY, table.getTableId()))))
          .isInstanceOf(ApiException.class)
          .satisfies(
              e -> {
                assertThat(((ApiException) e).getCode()).isEqualTo(400);
                assertThat(((ApiException) e).getResponseBody())
                    .contains("\"error_code\":\"FAILED_PRECONDITION\"")
                    .contains("Staging table already committed: " + table.getStorageLocation());
              });
      // Once the table is dropped, its id still names the staging table's location.
      new TablesApi(client).deleteTable("main.default.once");
      TemporaryCredentials credentials =
          new TemporaryCredentialsApi(client)
              .generateTemporaryTableCredentials(
                  new GenerateTemporaryTableCredential()
                      .tableId(table.getTableId())
                      .operation(TableOperation.READ_WRITE));
      assertThat(credentials.getExpirationTime()).isNull();
    }
  }

  @Test
  void distinctS3CredentialsAreNewOnEveryRequestAndAnnouncedBeforeTheAnswer() throws Exception {
    List<VendedS3Credential> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (UnityCatalogServer server =
        UnityCatalogServer.builder()
            .storageRoot(URI.create("s3://bucket/warehouse"))
            .distinctS3Credentials(Duration.ofSeconds(4))
            .onS3CredentialVended(announced::add)
            .build()
            .start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "rotating");
      GenerateTemporaryTableCredential ask =
          new GenerateTemporaryTableCredential()
              .tableId(table.getTableId())
              .operation(TableOperation.READ_WRITE);
      int before = announced.size();
      long asked = System.currentTimeMillis();
      TemporaryCredentials first =
          new TemporaryCredentialsApi(client).generateTemporaryTableCredentials(ask);
      TemporaryCredentials second =
          new TemporaryCredentialsApi(client).generateTemporaryTableCredentials(ask);

      assertThat(announced).hasSize(before + 2);
      VendedS3Credential one = announced.get(before);
      VendedS3Credential two = announced.get(before + 1);
      assertThat(first.getAwsTempCredentials().getAccessKeyId()).isEqualTo(one.accessKeyId());
      assertThat(first.getAwsTempCredentials().getSecretAccessKey())
          .isEqualTo(one.secretAccessKey());
      assertThat(first.getAwsTempCredentials().getSessionToken()).isEqualTo(one.sessionToken());
      assertThat(first.getExpirationTime()).isEqualTo(one.expiresAt().toEpochMilli());
      assertThat(second.getAwsTempCredentials().getAccessKeyId()).isEqualTo(two.accessKeyId());
      assertThat(two.accessKeyId()).isNotEqualTo(one.accessKeyId());
      assertThat(two.secretAccessKey()).isNotEqualTo(one.secretAccessKey());
      assertThat(two.sessionToken()).isNotEqualTo(one.sessionToken());
      assertThat(one.location()).isEqualTo(table.getStorageLocation());
      assertThat(one.expiresAt().toEpochMilli()).isBetween(asked + 4_000, asked + 4_000 + 60_000);
      assertThat(one.toString()).doesNotContain(one.secretAccessKey(), one.sessionToken());
    }
  }

  @Test
  void buildingWithoutAStorageRootIsRefused() {
    assertThatThrownBy(() -> UnityCatalogServer.builder().build())
        .hasMessageContaining("storageRoot");
  }
}
