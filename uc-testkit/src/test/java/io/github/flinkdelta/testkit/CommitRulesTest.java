/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.DeltaCommitsApi;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.api.TemporaryCredentialsApi;
import io.unitycatalog.client.model.CreateStagingTable;
import io.unitycatalog.client.model.CreateTable;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.DeltaCommit;
import io.unitycatalog.client.model.DeltaCommitInfo;
import io.unitycatalog.client.model.DeltaGetCommits;
import io.unitycatalog.client.model.DeltaGetCommitsResponse;
import io.unitycatalog.client.model.StagingTableInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableType;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unity Catalog OSS v0.6.0's commit rules, each exercised through the real {@code
 * unitycatalog-client} against the test server over HTTP.
 */
class CommitRulesTest {

  @TempDir Path dir;

  private UnityCatalogServer server;
  private ApiClient client;
  private TableInfo table;

  @BeforeEach
  void start() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    client = TestClients.client(server, null);
    table = TestClients.createManagedTable(client, "main", "default", "orders");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void newTableReportsLatestVersionZeroWithoutCommits() throws Exception {
    DeltaGetCommitsResponse commits = getCommits(0);
    assertThat(commits.getLatestTableVersion()).isZero();
    assertThat(commits.getCommits()).isEmpty();
  }

  @Test
  void versionZeroIsRefused() {
    assertStatus(() -> commit(0, "zero.json"), 400);
  }

  @Test
  void theFirstCommitMayBeAnyVersionFromOne() throws Exception {
    commit(5, "e.json");
    assertThat(getCommits(0).getLatestTableVersion()).isEqualTo(5);
    assertStatus(() -> commit(7, "g.json"), 400);
  }

  @Test
  void versionMustFollowTheLatest() throws Exception {
    commit(1, "a.json");
    assertStatus(() -> commit(3, "c.json"), 400);
    commit(2, "b.json");
    assertThat(getCommits(0).getLatestTableVersion()).isEqualTo(2);
    assertThat(getCommits(0).getCommits())
        .extracting(DeltaCommitInfo::getVersion)
        .containsExactlyInAnyOrder(1L, 2L);
  }

  @Test
  void replayWithTheSameFileIsAcceptedAndWithAnotherFileConflicts() throws Exception {
    commit(1, "a.json");
    commit(1, "a.json");
    assertStatus(() -> commit(1, "other.json"), 409);
    assertThat(getCommits(0).getCommits()).hasSize(1);
  }

  @Test
  void atMostTenUnbackfilledCommits() throws Exception {
    for (long v = 1; v <= 10; v++) {
      commit(v, v + ".json");
    }
    assertStatus(() -> commit(11, "11.json"), 429);
    backfill(10);
    commit(11, "11.json");
    assertThat(getCommits(0).getCommits())
        .extracting(DeltaCommitInfo::getVersion)
        .containsExactly(11L);
  }

  @Test
  void aBackfillSentWithTheCommitCountsBeforeTheLimit() throws Exception {
    for (long v = 1; v <= 10; v++) {
      commit(v, v + ".json");
    }
    new DeltaCommitsApi(client)
        .commit(
            commitRequest(table.getTableId(), table.getStorageLocation(), 11, "11.json")
                .latestBackfilledVersion(10L));
    assertThat(getCommits(0).getLatestTableVersion()).isEqualTo(11);
  }

  @Test
  void backfillAloneOnATableWithoutCommitsIsRefused() {
    assertStatus(() -> backfill(1), 400);
  }

  @Test
  void backfilledVersionBeyondTheLatestIsRefused() throws Exception {
    commit(1, "a.json");
    commit(2, "b.json");
    assertStatus(() -> backfill(3), 400);
    backfill(2);
    assertThat(getCommits(0).getCommits()).isEmpty();
    assertThat(getCommits(0).getLatestTableVersion()).isEqualTo(2);
    // A backfilled and forgotten version cannot be committed again, even as a replay.
    assertStatus(() -> commit(1, "a.json"), 409);
    commit(3, "c.json");
  }

  @Test
  void uriMismatchUnknownTableAndExternalTableAreRefused() throws Exception {
    DeltaCommitsApi api = new DeltaCommitsApi(client);
    assertStatus(
        () -> api.commit(commitRequest(table.getTableId(), "file:///elsewhere", 1, "a.json")), 400);
    assertStatus(
        () -> api.commit(commitRequest("no-such-id", table.getStorageLocation(), 1, "a.json")),
        404);

    TableInfo external =
        new TablesApi(client)
            .createTable(
                new CreateTable()
                    .name("ext")
                    .catalogName("main")
                    .schemaName("default")
                    .tableType(TableType.EXTERNAL)
                    .dataSourceFormat(DataSourceFormat.DELTA)
                    .storageLocation(dir.resolve("ext").toUri().toString()));
    assertStatus(
        () ->
            api.commit(
                commitRequest(external.getTableId(), external.getStorageLocation(), 1, "a.json")),
        400);
  }

  @Test
  void managedCreateNeedsTheStagingLocationAndTableIdProperty() throws Exception {
    TablesApi tables = new TablesApi(client);
    StagingTableInfo staging =
        tables.createStagingTable(
            new CreateStagingTable().name("t2").catalogName("main").schemaName("default"));
    CreateTable create =
        new CreateTable()
            .name("t2")
            .catalogName("main")
            .schemaName("default")
            .tableType(TableType.MANAGED)
            .dataSourceFormat(DataSourceFormat.DELTA)
            .storageLocation(staging.getStagingLocation());
    assertStatus(() -> tables.createTable(create), 400);
    assertStatus(
        () ->
            tables.createTable(
                create
                    .storageLocation(dir.resolve("wrong").toUri().toString())
                    .properties(Map.of(CatalogApi.TABLE_ID_PROPERTY, staging.getId()))),
        400);
    TableInfo created =
        tables.createTable(
            create
                .storageLocation(staging.getStagingLocation())
                .properties(Map.of(CatalogApi.TABLE_ID_PROPERTY, staging.getId())));
    assertThat(created.getTableId()).isEqualTo(staging.getId());
    assertThat(created.getTableType()).isEqualTo(TableType.MANAGED);
  }

  @Test
  void fileTablesGetEmptyCredentials() throws Exception {
    var credentials =
        new TemporaryCredentialsApi(client)
            .generateTemporaryTableCredentials(
                new io.unitycatalog.client.model.GenerateTemporaryTableCredential()
                    .tableId(table.getTableId())
                    .operation(io.unitycatalog.client.model.TableOperation.READ_WRITE));
    assertThat(credentials.getAwsTempCredentials()).isNull();
  }

  private void commit(long version, String file) throws ApiException {
    new DeltaCommitsApi(client)
        .commit(commitRequest(table.getTableId(), table.getStorageLocation(), version, file));
  }

  private void backfill(long version) throws ApiException {
    new DeltaCommitsApi(client)
        .commit(
            new DeltaCommit()
                .tableId(table.getTableId())
                .tableUri(table.getStorageLocation())
                .latestBackfilledVersion(version));
  }

  private DeltaGetCommitsResponse getCommits(long start) throws ApiException {
    return new DeltaCommitsApi(client)
        .getCommits(
            new DeltaGetCommits()
                .tableId(table.getTableId())
                .tableUri(table.getStorageLocation())
                .startVersion(start));
  }

  static DeltaCommit commitRequest(String id, String uri, long version, String file) {
    return new DeltaCommit()
        .tableId(id)
        .tableUri(uri)
        .commitInfo(
            new DeltaCommitInfo()
                .version(version)
                .timestamp(1_700_000_000_000L + version)
                .fileName(file)
                .fileSize(100L)
                .fileModificationTimestamp(1_700_000_000_000L + version));
  }

  static void assertStatus(ThrowingCall call, int status) {
    assertThatThrownBy(call::run)
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).getCode()).isEqualTo(status));
  }

  interface ThrowingCall {
    void run() throws Exception;
  }
}
