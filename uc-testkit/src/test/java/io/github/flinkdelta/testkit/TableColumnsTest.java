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
 * A table's columns, raw HTTP against the test server, as Unity Catalog OSS v0.6.0 kept them on
 * loopback: one store that {@code GET /tables/{name}} lists and the UC Delta API's load-table
 * answer rebuilds Delta columns from; replaced by {@code set-columns} on the UC Delta API and by a
 * legacy commit whose {@code metadata} holds a {@code schema}, and by nothing else.
 */
class TableColumnsTest {

  private static final String TABLES = "/delta/v1/catalogs/main/schemas/default/tables";

  /** {@code id int} (a partition column), {@code name string NOT NULL COMMENT 'who'}. */
  private static final String CREATED_COLUMNS =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"integer\",\"nullable\":true,"
          + "\"metadata\":{\"delta.columnMapping.id\":1}},"
          + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":false,"
          + "\"metadata\":{\"comment\":\"who\",\"delta.columnMapping.id\":2}}]}";

  /** {@code id} widened to long, {@code name} nullable, {@code tags array<string>} added. */
  private static final String CHANGED_COLUMNS =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":"
          + "{\"delta.columnMapping.id\":1,"
          + "\"delta.typeChanges\":[{\"toType\":\"long\",\"fromType\":\"integer\"}]}},"
          + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,"
          + "\"metadata\":{\"comment\":\"who\",\"delta.columnMapping.id\":2}},"
          + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"element-type\":\"string\","
          + "\"contains-null\":true},\"nullable\":true,"
          + "\"metadata\":{\"comment\":\"labels\",\"delta.columnMapping.id\":3}}]}";

  @TempDir Path dir;

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private UnityCatalogServer server;

  @BeforeEach
  void start() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void deltaApiTablesListTheirColumnsAndSetColumnsReplacesThem() throws Exception {
    JsonNode staging =
        ok(
            send(
                "POST",
                "/delta/v1/catalogs/main/schemas/default/staging-tables",
                "{\"name\":\"t\"}"));
    ok(
        send(
            "POST",
            TABLES,
            "{\"name\":\"t\",\"location\":\""
                + staging.get("location").asText()
                + "\",\"table-type\":\"MANAGED\",\"columns\":"
                + CREATED_COLUMNS
                + ",\"partition-columns\":[\"id\"],\"protocol\":"
                + staging.get("required-protocol")
                + ",\"properties\":"
                + staging.get("required-properties")
                + ",\"last-commit-timestamp-ms\":1700000000000}"));

    JsonNode columns = ok(send("GET", "/tables/main.default.t", null)).get("columns");
    assertThat(summaries(columns))
        .containsExactly(
            List.of("id", "INT", "int", "true", "0", "", "0"),
            List.of("name", "STRING", "string", "false", "1", "who", ""));
    assertThat(json.readTree(columns.get(1).get("type_json").asText()))
        .isEqualTo(json.readTree(CREATED_COLUMNS).get("fields").get(1));

    String uuid = staging.get("table-id").asText();
    HttpResponse<String> empty =
        send(
            "POST",
            TABLES + "/t",
            update(
                uuid,
                "{\"action\":\"set-columns\",\"columns\":{\"type\":\"struct\",\"fields\":[]}}"));
    assertThat(empty.statusCode()).isEqualTo(400);
    ok(
        send(
            "POST",
            TABLES + "/t",
            update(
                uuid,
                addCommit(1)
                    + ",{\"action\":\"set-columns\",\"columns\":"
                    + CHANGED_COLUMNS
                    + "}")));

    JsonNode changed = ok(send("GET", "/tables/main.default.t", null)).get("columns");
    assertThat(summaries(changed))
        .containsExactly(
            List.of("id", "LONG", "bigint", "true", "0", "", "0"),
            List.of("name", "STRING", "string", "true", "1", "who", ""),
            List.of("tags", "ARRAY", "array<string>", "true", "2", "labels", ""));
    // type_json is Delta's schema JSON: camelCase keys for arrays, field metadata as sent.
    assertThat(json.readTree(changed.get(2).get("type_json").asText()).get("type"))
        .isEqualTo(
            json.readTree("{\"type\":\"array\",\"elementType\":\"string\",\"containsNull\":true}"));
    JsonNode loaded = ok(send("GET", TABLES + "/t", null)).get("metadata");
    assertThat(loaded.get("columns")).isEqualTo(json.readTree(CHANGED_COLUMNS));
    assertThat(loaded.get("partition-columns")).isEqualTo(json.readTree("[\"id\"]"));
  }

  @Test
  void aLegacyCommitsMetadataReplacesColumnsPropertiesAndComment() throws Exception {
    JsonNode staging =
        ok(
            send(
                "POST",
                "/staging-tables",
                "{\"name\":\"t\",\"catalog_name\":\"main\",\"schema_name\":\"default\"}"));
    String id = staging.get("id").asText();
    String location = staging.get("staging_location").asText();
    ok(
        send(
            "POST",
            "/tables",
            "{\"name\":\"t\",\"catalog_name\":\"main\",\"schema_name\":\"default\","
                + "\"table_type\":\"MANAGED\",\"data_source_format\":\"DELTA\","
                + "\"storage_location\":\""
                + location
                + "\",\"columns\":["
                + legacyColumn("id", "INT", "integer", "integer", null)
                + "],\"properties\":{\"io.unitycatalog.tableId\":\""
                + id
                + "\",\"delta.feature.catalogManaged\":\"supported\"}}"));

    String columns =
        "{\"columns\":["
            + legacyColumn("id", "LONG", "bigint", "long", 0)
            + ","
            + legacyColumn("note", "STRING", "string", "string", null)
            + "]}";
    String properties = "{\"properties\":{\"io.unitycatalog.tableId\":\"" + id + "\",\"x\":\"y\"}}";
    assertThat(send("POST", "/delta/preview/commits", commit(id, location, 1, "{}")).statusCode())
        .isEqualTo(400);
    assertThat(
            send(
                    "POST",
                    "/delta/preview/commits",
                    commit(id, location, 1, "{\"properties\":{\"properties\":{\"x\":\"y\"}}}"))
                .body())
        .contains("Properties does not contain io.unitycatalog.tableId.");
    HttpResponse<String> accepted =
        send(
            "POST",
            "/delta/preview/commits",
            commit(
                id,
                location,
                1,
                "{\"description\":\"orders\",\"properties\":"
                    + properties
                    + ",\"schema\":"
                    + columns
                    + "}"));
    assertThat(accepted.body()).isEqualTo("200 OK");

    JsonNode table = ok(send("GET", "/tables/main.default.t", null));
    assertThat(summaries(table.get("columns")))
        .containsExactly(
            List.of("id", "LONG", "bigint", "true", "0", "", "0"),
            List.of("note", "STRING", "string", "true", "1", "", ""));
    assertThat(table.get("comment").asText()).isEqualTo("orders");
    // The properties sent replace all the table's properties.
    assertThat(table.get("properties")).isEqualTo(json.readTree(properties).get("properties"));
    JsonNode loaded = ok(send("GET", TABLES + "/t", null)).get("metadata");
    assertThat(loaded.at("/columns/fields/0/type").asText()).isEqualTo("long");
    assertThat(loaded.get("partition-columns")).isEqualTo(json.readTree("[\"id\"]"));

    // A replay applies nothing of its metadata; metadata never rides a backfill alone.
    assertThat(
            send(
                    "POST",
                    "/delta/preview/commits",
                    commit(id, location, 1, "{\"description\":\"other\"}"))
                .statusCode())
        .isEqualTo(200);
    assertThat(ok(send("GET", "/tables/main.default.t", null)).get("comment").asText())
        .isEqualTo("orders");
    HttpResponse<String> backfill =
        send(
            "POST",
            "/delta/preview/commits",
            "{\"table_id\":\""
                + id
                + "\",\"table_uri\":\""
                + location
                + "\",\"latest_backfilled_version\":1,\"metadata\":{\"description\":\"x\"}}");
    assertThat(backfill.statusCode()).isEqualTo(400);
    assertThat(backfill.body()).contains("metadata shouldn't be set for backfill only commit");
  }

  /** Name, type name, type text, nullable, position, comment and partition index of each column. */
  private static List<List<String>> summaries(JsonNode columns) {
    List<List<String>> summaries = new ArrayList<>();
    for (JsonNode column : columns) {
      summaries.add(
          List.of(
              column.get("name").asText(),
              column.get("type_name").asText(),
              column.get("type_text").asText(),
              column.get("nullable").asText(),
              column.get("position").asText(),
              column.path("comment").asText(""),
              column.path("partition_index").asText("")));
    }
    return summaries;
  }

  private static String legacyColumn(
      String name, String typeName, String typeText, String deltaType, Integer partitionIndex) {
    return "{\"name\":\""
        + name
        + "\",\"type_name\":\""
        + typeName
        + "\",\"type_text\":\""
        + typeText
        + "\",\"type_json\":\"{\\\"name\\\":\\\""
        + name
        + "\\\",\\\"type\\\":\\\""
        + deltaType
        + "\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}\",\"position\":"
        + ("id".equals(name) ? 0 : 1)
        + ",\"nullable\":true"
        + (partitionIndex == null ? "" : ",\"partition_index\":" + partitionIndex)
        + "}";
  }

  private static String commit(String id, String location, long version, String metadata) {
    return "{\"table_id\":\""
        + id
        + "\",\"table_uri\":\""
        + location
        + "\",\"commit_info\":{\"version\":"
        + version
        + ",\"timestamp\":1700000000001,\"file_name\":\""
        + version
        + ".json\",\"file_size\":10,\"file_modification_timestamp\":1700000000001},"
        + "\"metadata\":"
        + metadata
        + "}";
  }

  private static String addCommit(long version) {
    return "{\"action\":\"add-commit\",\"commit\":{\"version\":"
        + version
        + ",\"timestamp\":1700000000001,\"file-name\":\""
        + version
        + ".json\",\"file-size\":10,\"file-modification-timestamp\":1700000000001}}";
  }

  private static String update(String uuid, String updates) {
    return "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\""
        + uuid
        + "\"}],\"updates\":["
        + updates
        + "]}";
  }

  private JsonNode ok(HttpResponse<String> answer) throws Exception {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return json.readTree(answer.body());
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
