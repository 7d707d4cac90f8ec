/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static io.github.flinkdelta.testkit.CommitRulesTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.DeltaCommitsApi;
import io.unitycatalog.client.delta.api.DeltaConfigurationApi;
import io.unitycatalog.client.delta.api.DeltaTablesApi;
import io.unitycatalog.client.delta.api.DeltaTemporaryCredentialsApi;
import io.unitycatalog.client.delta.model.DeltaAddCommitUpdate;
import io.unitycatalog.client.delta.model.DeltaAssertEtag;
import io.unitycatalog.client.delta.model.DeltaAssertTableUUID;
import io.unitycatalog.client.delta.model.DeltaCommit;
import io.unitycatalog.client.delta.model.DeltaCreateStagingTableRequest;
import io.unitycatalog.client.delta.model.DeltaCreateTableRequest;
import io.unitycatalog.client.delta.model.DeltaCredentialOperation;
import io.unitycatalog.client.delta.model.DeltaLoadTableResponse;
import io.unitycatalog.client.delta.model.DeltaProtocol;
import io.unitycatalog.client.delta.model.DeltaSetLatestBackfilledVersionUpdate;
import io.unitycatalog.client.delta.model.DeltaSetPropertiesUpdate;
import io.unitycatalog.client.delta.model.DeltaStagingTableResponse;
import io.unitycatalog.client.delta.model.DeltaStructType;
import io.unitycatalog.client.delta.model.DeltaTableRequirement;
import io.unitycatalog.client.delta.model.DeltaTableType;
import io.unitycatalog.client.delta.model.DeltaTableUpdate;
import io.unitycatalog.client.delta.model.DeltaUpdateTableRequest;
import io.unitycatalog.client.delta.serde.DeltaDataTypeModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The UC Delta API ({@code /delta/v1}), through the real client's Delta API classes. */
class DeltaRestApiTest {

  /** One column, {@code id long NOT NULL}, parsed as delta-storage parses Delta's schema JSON. */
  private static final DeltaStructType ID_COLUMN =
      parse(
          "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\","
              + "\"nullable\":false,\"metadata\":{}}]}");

  @TempDir Path dir;

  private UnityCatalogServer server;
  private ApiClient client;
  private DeltaTablesApi tables;
  private UUID tableId;

  @BeforeEach
  void createTable() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    client = TestClients.client(server, null);
    tables = new DeltaTablesApi(client);
    DeltaStagingTableResponse staging =
        tables.createStagingTable(
            "main", "default", new DeltaCreateStagingTableRequest().name("events"));
    assertThat(staging.getRequiredProtocol().getMinWriterVersion()).isEqualTo(7);
    assertThat(staging.getRequiredProperties())
        .containsEntry("io.unitycatalog.tableId", staging.getTableId().toString())
        .containsEntry("delta.checkpointPolicy", "v2");
    tables.createTable(
        "main", "default", create("events", staging, staging.getRequiredProperties()));
    tableId = staging.getTableId();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void newTableLoadsAtVersionZeroAndCommitsShowNewestFirst() throws Exception {
    DeltaLoadTableResponse loaded = tables.loadTable("main", "default", "events");
    assertThat(loaded.getLatestTableVersion()).isZero();
    assertThat(loaded.getCommits()).isEmpty();
    assertThat(loaded.getMetadata().getTableUuid()).isEqualTo(tableId);
    assertThat(loaded.getMetadata().getColumns().getFields()).hasSize(1);

    update(addCommit(1, "1.json"));
    DeltaLoadTableResponse after = update(addCommit(2, "2.json"));
    assertThat(after.getLatestTableVersion()).isEqualTo(2);
    assertThat(after.getCommits()).extracting(DeltaCommit::getVersion).containsExactly(2L, 1L);

    update(backfill(2));
    assertThat(tables.loadTable("main", "default", "events").getCommits()).isEmpty();
  }

  @Test
  void updateShapeRules() {
    assertStatus(
        () -> tables.updateTable("main", "default", "events", new DeltaUpdateTableRequest()), 400);
    assertStatus(
        () ->
            tables.updateTable(
                "main",
                "default",
                "events",
                new DeltaUpdateTableRequest().updates(new ArrayList<>(List.of(addCommit(1, "a"))))),
        400);
    assertStatus(
        () ->
            tables.updateTable(
                "main",
                "default",
                "events",
                request(UUID.randomUUID(), List.of(addCommit(1, "a")))),
        409);
    assertStatus(() -> update(addCommit(1, "a"), addCommit(2, "b")), 400);
    assertStatus(() -> update(addCommit(0, "zero")), 400);
  }

  @Test
  void conflictsAndLimitsUseTheDeltaErrorBody() throws Exception {
    update(addCommit(1, "1.json"));
    update(addCommit(1, "1.json")); // replay
    assertThatThrownBy(() -> update(addCommit(1, "other.json")))
        .isInstanceOf(ApiException.class)
        .satisfies(
            e -> {
              assertThat(((ApiException) e).getCode()).isEqualTo(409);
              assertThat(((ApiException) e).getResponseBody())
                  .contains("\"type\":\"CommitVersionConflictException\"")
                  .contains("\"code\":409");
            });
    for (long v = 2; v <= 10; v++) {
      update(addCommit(v, v + ".json"));
    }
    assertStatus(() -> update(addCommit(11, "11.json")), 429);
  }

  @Test
  void staleEtagIsAConflictAndMetadataChangesMoveTheEtag() throws Exception {
    String etag = tables.loadTable("main", "default", "events").getMetadata().getEtag();
    update(addCommit(1, "1.json"));
    assertThat(tables.loadTable("main", "default", "events").getMetadata().getEtag())
        .isEqualTo(etag);
    Thread.sleep(2);
    update(new DeltaSetPropertiesUpdate().updates(Map.of("owner.team", "ingest")));
    String changed = tables.loadTable("main", "default", "events").getMetadata().getEtag();
    assertThat(changed).isNotEqualTo(etag);
    List<DeltaTableRequirement> requirements = new ArrayList<>();
    requirements.add(new DeltaAssertTableUUID().uuid(tableId));
    requirements.add(new DeltaAssertEtag().etag(etag));
    assertStatus(
        () ->
            tables.updateTable(
                "main",
                "default",
                "events",
                new DeltaUpdateTableRequest()
                    .requirements(requirements)
                    .updates(new ArrayList<>(List.of(addCommit(2, "2.json"))))),
        409);
    assertThat(server.latestVersion("main.default.events")).isEqualTo(1);
  }

  @Test
  void bothApisShareOneCommitLog() throws Exception {
    String location = tables.loadTable("main", "default", "events").getMetadata().getLocation();
    new DeltaCommitsApi(client)
        .commit(CommitRulesTest.commitRequest(tableId.toString(), location, 1, "legacy.json"));
    assertThat(tables.loadTable("main", "default", "events").getCommits())
        .extracting(DeltaCommit::getFileName)
        .containsExactly("legacy.json");
    assertStatus(() -> update(addCommit(1, "v1.json")), 409);
  }

  @Test
  void managedCreateMustHonourTheContract() throws Exception {
    DeltaStagingTableResponse staging =
        tables.createStagingTable(
            "main", "default", new DeltaCreateStagingTableRequest().name("bad"));
    Map<String, String> missing = new HashMap<>(staging.getRequiredProperties());
    missing.remove("delta.enableInCommitTimestamps");
    assertStatus(() -> tables.createTable("main", "default", create("bad", staging, missing)), 400);
    assertThat(
            tables
                .createTable(
                    "main", "default", create("bad", staging, staging.getRequiredProperties()))
                .getMetadata()
                .getTableUuid())
        .isEqualTo(staging.getTableId());
    assertThat(new DeltaConfigurationApi(client).getConfig("main", "1.0").getProtocolVersion())
        .isEqualTo("1.0");
    assertStatus(() -> new DeltaConfigurationApi(client).getConfig("nope", "1.0"), 404);
  }

  @Test
  void fileTablesGetCredentialsWithAnEmptyConfig() throws Exception {
    var credentials =
        new DeltaTemporaryCredentialsApi(client)
            .getTableCredentials(DeltaCredentialOperation.READ_WRITE, "main", "default", "events");
    assertThat(credentials.getStorageCredentials()).hasSize(1);
    assertThat(credentials.getStorageCredentials().get(0).getConfig().getS3AccessKeyId()).isNull();
  }

  private DeltaCreateTableRequest create(
      String name, DeltaStagingTableResponse staging, Map<String, String> properties) {
    return new DeltaCreateTableRequest()
        .name(name)
        .location(staging.getLocation())
        .tableType(DeltaTableType.MANAGED)
        .columns(ID_COLUMN)
        .protocol(
            new DeltaProtocol()
                .minReaderVersion(3)
                .minWriterVersion(7)
                .readerFeatures(new ArrayList<>(ManagedTableContract.REQUIRED_READER_FEATURES))
                .writerFeatures(new ArrayList<>(ManagedTableContract.REQUIRED_WRITER_FEATURES)))
        .properties(properties)
        .lastCommitTimestampMs(1L);
  }

  private static DeltaStructType parse(String json) {
    try {
      return new ObjectMapper()
          .registerModule(new DeltaDataTypeModule())
          .readValue(json, DeltaStructType.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private DeltaLoadTableResponse update(DeltaTableUpdate... updates) throws ApiException {
    return tables.updateTable("main", "default", "events", request(tableId, List.of(updates)));
  }

  private static DeltaUpdateTableRequest request(UUID uuid, List<DeltaTableUpdate> updates) {
    return new DeltaUpdateTableRequest()
        .requirements(new ArrayList<>(List.of(new DeltaAssertTableUUID().uuid(uuid))))
        .updates(new ArrayList<>(updates));
  }

  private static DeltaTableUpdate addCommit(long version, String file) {
    return new DeltaAddCommitUpdate()
        .commit(
            new DeltaCommit()
                .version(version)
                .timestamp(1_700_000_000_000L + version)
                .fileName(file)
                .fileSize(10L)
                .fileModificationTimestamp(1_700_000_000_000L + version));
  }

  private static DeltaTableUpdate backfill(long version) {
    return new DeltaSetLatestBackfilledVersionUpdate().latestPublishedVersion(version);
  }
}
