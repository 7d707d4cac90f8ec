/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static io.github.flinkdelta.it.support.EvolvingRows.V1;
import static io.github.flinkdelta.it.support.EvolvingRows.V2;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Schema evolution of a Unity Catalog managed table: the new schema is a version the catalog
 * ratifies like any commit (uc-testkit over HTTP), and later jobs and readers going through the
 * catalog see it.
 */
class UnityCatalogSchemaEvolutionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "uc-evolution-token";
  private static final String TABLE = "main.default.evolving";
  private static final String UPDATE_TABLE =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;

  @BeforeEach
  void connect() {
    server = catalog.server();
    connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
  }

  @Test
  void aJobWithAnAddedColumnEvolvesAManagedTableInAVersionTheCatalogRatifies() throws Exception {
    EvolvingRows.writeInBatch(FLINK, V1, sink(V1).build(), 0, 50);
    long before = server.latestVersion(TABLE);
    int commitsBefore = server.faults().calls(UPDATE_TABLE);

    DeltaSink wider = sink(V2).schemaEvolution(SchemaEvolution.WIDEN).build();

    // The schema change is one more version, ratified through the catalog's commit API and
    // published to the table's log, with the new schema and no data.
    long schemaVersion = before + 1;
    assertThat(server.latestVersion(TABLE)).isEqualTo(schemaVersion);
    assertThat(server.faults().calls(UPDATE_TABLE)).isGreaterThan(commitsBefore);
    String location = CatalogReads.table(connection, TABLE).location();
    assertThat(DeltaLogFiles.actions(location, schemaVersion, "add")).isEmpty();
    JsonNode metadata = DeltaLogFiles.actions(location, schemaVersion, "metaData").get(0);
    assertThat(metadata.get("schemaString").asText()).contains("\"note\"").contains("\"score\"");
    // Readers through the catalog see the new schema at once, the old rows with nulls in it.
    CatalogReads.Read evolved = CatalogReads.read(connection, TABLE);
    assertThat(evolved.version()).isEqualTo(schemaVersion);
    assertThat(evolved.rows()).containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(50, 0));

    EvolvingRows.writeInBatch(FLINK, V2, wider, 50, 50);

    CatalogReads.Read read = CatalogReads.read(connection, TABLE);
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(50, 50));
    assertThat(server.latestVersion(TABLE)).isEqualTo(read.version()).isGreaterThan(schemaVersion);
  }

  @Test
  void theCatalogRecordsThePropertiesOfTheSchemaCommit() throws Exception {
    EvolvingRows.writeInBatch(FLINK, V1, sink(V1).build(), 0, 10);
    assertThat(tableProperties().has("delta.enableTypeWidening")).isFalse();

    sink(V2).schemaEvolution(SchemaEvolution.WIDEN).build();

    // The schema commit enabled type widening for qty; the catalog's table says so, as of it.
    JsonNode properties = tableProperties();
    assertThat(properties.get("delta.enableTypeWidening").asText()).isEqualTo("true");
    assertThat(properties.get("delta.lastUpdateVersion").asLong())
        .isEqualTo(server.latestVersion(TABLE));
  }

  /** The table's properties as the catalog's {@code GET /tables/{full_name}} answers them. */
  private JsonNode tableProperties() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.uri() + UnityCatalogServer.API_BASE + "/tables/" + TABLE))
                    .header("Authorization", "Bearer " + TOKEN)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body()).get("properties");
  }

  private DeltaSinkBuilder sink(RowType type) {
    return DeltaSink.builder()
        .unityCatalog(connection)
        .tableName(TABLE)
        .rowType(type)
        .partitionColumns("bucket");
  }
}
