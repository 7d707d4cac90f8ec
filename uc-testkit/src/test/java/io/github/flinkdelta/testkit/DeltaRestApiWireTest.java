/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UC Delta API on the wire, raw HTTP against the test server, as Unity Catalog OSS v0.6.0
 * answered the same requests on loopback: status codes, and bodies read as JSON so that explicit
 * nulls and the exact key sets show.
 */
class DeltaRestApiWireTest {

  private static final String TABLES = "/delta/v1/catalogs/main/schemas/default/tables";
  private static final long VERSION_ZERO_MS = 1_700_000_000_000L;

  @TempDir Path dir;

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private UnityCatalogServer server;
  private JsonNode staging;
  private JsonNode created;

  @BeforeEach
  void createTable() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    HttpResponse<String> stage =
        send("POST", "/delta/v1/catalogs/main/schemas/default/staging-tables", "{\"name\":\"t\"}");
    assertThat(stage.statusCode()).isEqualTo(200);
    staging = json.readTree(stage.body());
    HttpResponse<String> create = send("POST", TABLES, createBody("t"));
    assertThat(create.statusCode()).as(create.body()).isEqualTo(200);
    created = json.readTree(create.body());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void configWithoutProtocolVersionsIsA400ForAnyCatalog() throws Exception {
    for (String catalog : List.of("main", "_probe")) {
      HttpResponse<String> answer = send("GET", "/delta/v1/config?catalog=" + catalog, null);
      assertThat(answer.statusCode()).isEqualTo(400);
      assertThat(error(answer).get("message").asText())
          .isEqualTo("Mandatory parameter/header is missing: protocol-versions");
      assertThat(error(answer).get("type").asText()).isEqualTo("InvalidParameterValueException");
    }
    HttpResponse<String> noCatalog = send("GET", "/delta/v1/config?protocol-versions=1.0", null);
    assertThat(noCatalog.statusCode()).isEqualTo(400);
    assertThat(error(noCatalog).get("message").asText())
        .isEqualTo("Mandatory parameter/header is missing: catalog");
    HttpResponse<String> unknown =
        send("GET", "/delta/v1/config?catalog=_probe&protocol-versions=1.0", null);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(error(unknown).get("type").asText()).isEqualTo("NoSuchCatalogException");
  }

  @Test
  void configListsTheTwelveEndpointsOfTheRealServer() throws Exception {
    HttpResponse<String> answer =
        send("GET", "/delta/v1/config?catalog=main&protocol-versions=1.0", null);
    assertThat(answer.statusCode()).isEqualTo(200);
    JsonNode config = json.readTree(answer.body());
    assertThat(config.get("protocol-version").asText()).isEqualTo("1.0");
    List<String> endpoints = new ArrayList<>();
    config.get("endpoints").forEach(e -> endpoints.add(e.asText()));
    String table = "/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
    assertThat(endpoints)
        .containsExactly(
            "POST /v1/catalogs/{catalog}/schemas/{schema}/staging-tables",
            "POST /v1/catalogs/{catalog}/schemas/{schema}/tables",
            "GET /v1/catalogs/{catalog}/schemas/{schema}/tables",
            "GET " + table,
            "POST " + table,
            "DELETE " + table,
            "HEAD " + table,
            "POST " + table + "/rename",
            "GET " + table + "/credentials",
            "POST " + table + "/metrics",
            "GET /v1/staging-tables/{table_id}/credentials",
            "GET /v1/temporary-path-credentials");
  }

  @Test
  void headAndDeleteOfATableAnswer204ThenTheTableIsGone() throws Exception {
    HttpResponse<String> head = send("HEAD", TABLES + "/t", null);
    assertThat(head.statusCode()).isEqualTo(204);
    assertThat(head.body()).isEmpty();
    assertThat(send("HEAD", TABLES + "/nope", null).statusCode()).isEqualTo(404);

    HttpResponse<String> delete = send("DELETE", TABLES + "/t", null);
    assertThat(delete.statusCode()).isEqualTo(204);
    assertThat(delete.body()).isEmpty();
    assertThat(send("HEAD", TABLES + "/t", null).statusCode()).isEqualTo(404);
    assertThat(send("GET", TABLES + "/t", null).statusCode()).isEqualTo(404);
    HttpResponse<String> again = send("DELETE", TABLES + "/t", null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(error(again).get("type").asText()).isEqualTo("NoSuchTableException");
    assertThat(server.latestVersion("main.default.t")).isEqualTo(-1);
  }

  @Test
  void listingTablesOnTheDeltaApiIsMethodNotAllowed() throws Exception {
    HttpResponse<String> list = send("GET", TABLES, null);
    assertThat(list.statusCode()).isEqualTo(405);
    assertThat(list.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
    // Another method on a known path is a 405 too; an unknown path stays a 404.
    assertThat(send("PUT", TABLES + "/t", "{}").statusCode()).isEqualTo(405);
    assertThat(send("GET", "/delta/v1/nothing", null).statusCode()).isEqualTo(404);
    // HEAD of a path served by GET alone is answered as the GET, without the body.
    HttpResponse<String> head =
        send("HEAD", "/delta/v1/config?catalog=main&protocol-versions=1.0", null);
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void stagingCredentialsOutliveTheTableCreatedFromThem() throws Exception {
    String credentials =
        "/delta/v1/staging-tables/" + staging.get("table-id").asText() + "/credentials";
    HttpResponse<String> afterCreate = send("GET", credentials, null);
    assertThat(afterCreate.statusCode()).isEqualTo(200);
    assertThat(json.readTree(afterCreate.body()).at("/storage-credentials/0/prefix").asText())
        .isEqualTo(staging.get("location").asText());

    // The staging table is used up: a second table cannot be created from it.
    HttpResponse<String> second = send("POST", TABLES, createBody("t2"));
    assertThat(second.statusCode()).isEqualTo(400);
    assertThat(error(second).get("message").asText())
        .isEqualTo("Staging table already committed: " + staging.get("location").asText());

    assertThat(send("DELETE", TABLES + "/t", null).statusCode()).isEqualTo(204);
    assertThat(send("GET", credentials, null).statusCode()).isEqualTo(200);
    assertThat(send("GET", TABLES + "/t/credentials?operation=READ_WRITE", null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void stagingAnswerSuggestsAProtocolAndSevenProperties() {
    JsonNode protocol = staging.get("suggested-protocol");
    assertThat(texts(protocol.get("reader-features"))).containsExactly("columnMapping");
    assertThat(texts(protocol.get("writer-features")))
        .containsExactly("columnMapping", "domainMetadata", "rowTracking");
    JsonNode properties = staging.get("suggested-properties");
    List<String> keys = new ArrayList<>();
    properties.fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactlyInAnyOrder(
            "delta.enableRowTracking",
            "delta.rowTracking.materializedRowIdColumnName",
            "delta.columnMapping.maxColumnId",
            "delta.randomizeFilePrefixes",
            "delta.parquet.compression.codec",
            "delta.rowTracking.materializedRowCommitVersionColumnName",
            "delta.columnMapping.mode");
    assertThat(properties.get("delta.enableRowTracking").asText()).isEqualTo("true");
    assertThat(properties.get("delta.randomizeFilePrefixes").asText()).isEqualTo("true");
    assertThat(properties.get("delta.parquet.compression.codec").asText()).isEqualTo("zstd");
    assertThat(properties.get("delta.columnMapping.mode").asText()).isEqualTo("name");
    // Names the client fills in itself are listed with a null value.
    assertThat(properties.get("delta.columnMapping.maxColumnId").isNull()).isTrue();
    assertThat(properties.get("delta.rowTracking.materializedRowIdColumnName").isNull()).isTrue();
  }

  @Test
  void createAnswerCarriesTheLastCommitAndThePropertiesTheServerAdds() throws Exception {
    JsonNode metadata = created.get("metadata");
    assertThat(metadata.get("last-commit-version").asLong()).isZero();
    assertThat(metadata.get("last-commit-timestamp-ms").asLong()).isEqualTo(VERSION_ZERO_MS);
    List<String> keys = new ArrayList<>();
    metadata.get("properties").fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactlyInAnyOrder(
            "delta.enableInCommitTimestamps",
            "delta.checkpoint.writeStatsAsJson",
            "delta.checkpointPolicy",
            "delta.checkpoint.writeStatsAsStruct",
            "delta.enableDeletionVectors",
            "io.unitycatalog.tableId",
            "delta.feature.catalogManaged",
            "delta.feature.v2Checkpoint",
            "delta.feature.vacuumProtocolCheck",
            "delta.feature.deletionVectors",
            "delta.feature.inCommitTimestamp",
            "delta.minReaderVersion",
            "delta.minWriterVersion",
            "delta.lastUpdateVersion",
            "delta.lastCommitTimestamp");
    JsonNode properties = metadata.get("properties");
    assertThat(properties.get("delta.feature.catalogManaged").asText()).isEqualTo("supported");
    assertThat(properties.get("delta.minReaderVersion").asText()).isEqualTo("3");
    assertThat(properties.get("delta.minWriterVersion").asText()).isEqualTo("7");
    assertThat(properties.get("delta.lastUpdateVersion").asText()).isEqualTo("0");
    assertThat(properties.get("delta.lastCommitTimestamp").asText())
        .isEqualTo(String.valueOf(VERSION_ZERO_MS));
    // Loading the table answers the same.
    assertThat(json.readTree(send("GET", TABLES + "/t", null).body()).get("metadata"))
        .isEqualTo(metadata);
  }

  @Test
  void onlyAMetadataChangingCommitMovesTheLastCommit() throws Exception {
    String uuid = created.at("/metadata/table-uuid").asText();
    String dataOnly = update(uuid, commit(1), "");
    assertThat(send("POST", TABLES + "/t", dataOnly).statusCode()).isEqualTo(200);
    JsonNode afterData = json.readTree(send("GET", TABLES + "/t", null).body()).get("metadata");
    assertThat(afterData.get("last-commit-version").asLong()).isZero();

    String withMetadata =
        update(uuid, commit(2), ",{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}}");
    JsonNode afterMetadata =
        json.readTree(send("POST", TABLES + "/t", withMetadata).body()).get("metadata");
    assertThat(afterMetadata.get("last-commit-version").asLong()).isEqualTo(2);
    assertThat(afterMetadata.get("last-commit-timestamp-ms").asLong())
        .isEqualTo(VERSION_ZERO_MS + 2);
    assertThat(afterMetadata.at("/properties/delta.lastUpdateVersion").asText()).isEqualTo("2");
  }

  @Test
  void deltaErrorBodiesCarryANullStack() throws Exception {
    HttpResponse<String> missing = send("GET", TABLES + "/nope", null);
    assertThat(missing.statusCode()).isEqualTo(404);
    JsonNode error = error(missing);
    assertThat(error.get("message").asText()).isEqualTo("Table not found: main.default.nope");
    assertThat(error.get("type").asText()).isEqualTo("NoSuchTableException");
    assertThat(error.get("code").asInt()).isEqualTo(404);
    assertThat(error.has("stack")).isTrue();
    assertThat(error.get("stack").isNull()).isTrue();
  }

  private String createBody(String name) {
    return "{\"name\":\""
        + name
        + "\",\"location\":\""
        + staging.get("location").asText()
        + "\",\"table-type\":\"MANAGED\",\"columns\":{\"type\":\"struct\",\"fields\":"
        + "[{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}}]},"
        + "\"protocol\":"
        + staging.get("required-protocol")
        + ",\"properties\":"
        + staging.get("required-properties")
        + ",\"last-commit-timestamp-ms\":"
        + VERSION_ZERO_MS
        + "}";
  }

  private static String commit(long version) {
    return "{\"action\":\"add-commit\",\"commit\":{\"version\":"
        + version
        + ",\"timestamp\":"
        + (VERSION_ZERO_MS + version)
        + ",\"file-name\":\""
        + version
        + ".json\",\"file-size\":10,\"file-modification-timestamp\":"
        + (VERSION_ZERO_MS + version)
        + "}}";
  }

  private static String update(String uuid, String commit, String moreUpdates) {
    return "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\""
        + uuid
        + "\"}],\"updates\":["
        + commit
        + moreUpdates
        + "]}";
  }

  private JsonNode error(HttpResponse<String> answer) throws Exception {
    return json.readTree(answer.body()).get("error");
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(e -> texts.add(e.asText()));
    return texts;
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.uri() + UnityCatalogServer.API_BASE + path))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
