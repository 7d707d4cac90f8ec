/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CREATE CATALOG ... WITH ('type' = 'unitycatalog')}: browsing, DDL and streaming inserts
 * through catalog-managed commits, against the embedded Unity Catalog server over HTTP.
 */
@Tag("smoke")
class UnityCatalogSqlCatalogITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "sql-catalog-token";

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @RegisterExtension
  final UnityCatalogServerExtension eastCatalog =
      new UnityCatalogServerExtension(uc -> uc.token("east-token"));

  @RegisterExtension
  final UnityCatalogServerExtension westCatalog =
      new UnityCatalogServerExtension(uc -> uc.token("west-token"));

  @Test
  void ddlBrowsingAndExactlyOnceInsertsThroughTheCatalog() throws Exception {
    UnityCatalogServer server = catalog.server();
    StreamTableEnvironment sql = sql();
    createCatalog(sql, "uc", server, TOKEN);
    sql.executeSql("CREATE DATABASE uc.sales COMMENT 'sales data'");
    sql.executeSql("USE CATALOG uc");
    assertThat(strings(sql.executeSql("SHOW DATABASES"))).contains("default", "sales");

    sql.executeSql(
        "CREATE TABLE IF NOT EXISTS sales.orders ("
            + " id BIGINT NOT NULL, region STRING, amount DECIMAL(10, 2))"
            + " COMMENT 'orders by region' PARTITIONED BY (region)"
            + " WITH ('delta.appendOnly' = 'true')");
    // A second IF NOT EXISTS is a no-op.
    sql.executeSql(
        "CREATE TABLE IF NOT EXISTS sales.orders (id BIGINT NOT NULL, region STRING,"
            + " amount DECIMAL(10, 2)) PARTITIONED BY (region)");
    assertThat(strings(sql.executeSql("SHOW TABLES IN sales"))).containsExactly("orders");
    assertThat(strings(sql.executeSql("DESCRIBE sales.orders")))
        .containsExactly("id", "region", "amount");
    CatalogBaseTable described =
        sql.getCatalog("uc").orElseThrow().getTable(new ObjectPath("sales", "orders"));
    assertThat(((CatalogTable) described).getPartitionKeys()).containsExactly("region");
    assertThat(described.getComment()).isEqualTo("orders by region");
    assertThat(described.getOptions()).containsEntry("delta.appendOnly", "true");
    assertThat(described.getUnresolvedSchema().toString())
        .contains("BIGINT NOT NULL")
        .contains("DECIMAL(10, 2)");

    // A streaming insert from a bounded generator, with checkpoints along the way.
    long count = 1_500;
    sql.executeSql(
        "CREATE TEMPORARY TABLE default_catalog.default_database.gen (id BIGINT) WITH ("
            + " 'connector' = 'datagen', 'fields.id.kind' = 'sequence',"
            + " 'fields.id.start' = '0', 'fields.id.end' = '"
            + (count - 1)
            + "', 'rows-per-second' = '1000')");
    sql.executeSql(
            "INSERT INTO sales.orders SELECT id,"
                + " CASE WHEN MOD(id, 3) = 0 THEN 'eu' WHEN MOD(id, 3) = 1 THEN 'us' ELSE 'apac' END,"
                + " CAST(id AS DECIMAL(10, 2)) / 4"
                + " FROM default_catalog.default_database.gen")
        .await();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    List<List<Object>> expected = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      String region = id % 3 == 0 ? "eu" : id % 3 == 1 ? "us" : "apac";
      expected.add(
          List.of(
              id,
              region,
              new java.math.BigDecimal(id).divide(new java.math.BigDecimal(4)).setScale(2)));
    }
    CatalogReads.Read read = CatalogReads.read(connection, "main.sales.orders");
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(read.version()).isGreaterThan(1); // several checkpoints, several versions

    // A new nullable column, then rows that use it; older rows read it as null.
    sql.executeSql("ALTER TABLE sales.orders ADD note STRING");
    assertThat(strings(sql.executeSql("DESCRIBE sales.orders")))
        .containsExactly("id", "region", "amount", "note");
    sql.executeSql("INSERT INTO sales.orders VALUES (" + count + ", 'eu', 1.25, 'added')").await();
    List<List<Object>> withNote = new ArrayList<>();
    expected.forEach(r -> withNote.add(Arrays.asList(r.get(0), r.get(1), r.get(2), null)));
    withNote.add(List.of(count, "eu", new java.math.BigDecimal("1.25"), "added"));
    assertThat(CatalogReads.rows(connection, "main.sales.orders"))
        .containsExactlyInAnyOrderElementsOf(withNote);

    sql.executeSql("DROP TABLE sales.orders");
    assertThat(strings(sql.executeSql("SHOW TABLES IN sales"))).isEmpty();
    sql.executeSql("DROP TABLE IF EXISTS sales.orders");
    sql.executeSql("DROP DATABASE sales");
    assertThat(strings(sql.executeSql("SHOW DATABASES"))).doesNotContain("sales");
  }

  @Test
  void viewsFunctionsAndOtherChangesFailSayingTheyAreNotSupported() throws Exception {
    UnityCatalogServer server = catalog.server();
    StreamTableEnvironment sql = sql();
    createCatalog(sql, "uc", server, TOKEN);
    sql.executeSql("CREATE TABLE uc.`default`.t (id BIGINT)");

    assertFailsWith(
        () -> sql.executeSql("CREATE VIEW uc.`default`.v AS SELECT 1 AS x"),
        "views are not supported");
    assertFailsWith(
        () ->
            sql.executeSql(
                "CREATE FUNCTION uc.`default`.f AS 'org.apache.flink.table.functions.ScalarFunction'"),
        "does not support functions");
    assertFailsWith(
        () -> sql.executeSql("ALTER TABLE uc.`default`.t RENAME TO t2"),
        "does not support renaming tables");
    assertFailsWith(
        () -> sql.executeSql("ALTER TABLE uc.`default`.t ADD k BIGINT NOT NULL"),
        "must be nullable");
    assertFailsWith(
        () ->
            sql.executeSql(
                "CREATE TABLE uc.`default`.c (id BIGINT) WITH ('connector' = 'filesystem')"),
        "remove the 'connector' option");
    assertFailsWith(
        () ->
            sql.executeSql(
                    "INSERT INTO uc.`default`.t /*+ OPTIONS('sink.rolling.max-rows'='5') */"
                        + " VALUES (1)")
                .await(),
        "unknown write option 'sink.rolling.max-rows'");

    createExternalParquetTable(server, "main.default.raw_files");
    assertThat(strings(sql.executeSql("SHOW TABLES IN uc.`default`"))).contains("raw_files");
    assertFailsWith(
        () -> sql.executeSql("DESCRIBE uc.`default`.raw_files"),
        "main.default.raw_files is not a Delta table");
    assertFailsWith(
        () -> sql.executeSql("INSERT INTO uc.`default`.raw_files VALUES (1)").await(),
        "is not a Delta table");
  }

  @Test
  void aBatchInsertThroughTheCatalogCommitsItsRowsOnce() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    createCatalog(sql, "uc", server, TOKEN);
    sql.executeSql(
        "CREATE TABLE uc.`default`.daily (id BIGINT, region STRING) PARTITIONED BY (region)");
    sql.executeSql(
        "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '3000',"
            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
            + " 'fields.id.end' = '3000')");
    sql.executeSql(
            "INSERT INTO uc.`default`.daily SELECT id,"
                + " CASE WHEN MOD(id, 3) = 0 THEN 'eu' ELSE 'us' END FROM ids")
        .await();

    List<List<Object>> expected = new ArrayList<>();
    for (long id = 1; id <= 3000; id++) {
      expected.add(List.of(id, id % 3 == 0 ? "eu" : "us"));
    }
    assertThat(CatalogReads.rows(connection(server, TOKEN), "main.default.daily"))
        .containsExactlyInAnyOrderElementsOf(expected);
    // Version 0 created the table; the whole batch is the one version after it.
    assertThat(server.latestVersion("main.default.daily")).isEqualTo(1);
    assertFailsWith(
        () -> sql.executeSql("INSERT OVERWRITE uc.`default`.daily SELECT 1, 'eu'").await(),
        "SupportsOverwrite");
  }

  @Test
  void twoCatalogsOnTwoServersShareNeitherConnectionsNorCredentials() throws Exception {
    UnityCatalogServer east = eastCatalog.server();
    UnityCatalogServer west = westCatalog.server();
    StreamTableEnvironment sql = sql();
    createCatalog(sql, "east", east, "east-token");
    createCatalog(sql, "west", west, "west-token");
    sql.executeSql("CREATE TABLE east.`default`.t (id BIGINT, city STRING)");
    sql.executeSql("CREATE TABLE west.`default`.t (id BIGINT, score DOUBLE)");
    var set = sql.createStatementSet();
    set.addInsertSql("INSERT INTO east.`default`.t VALUES (1, 'boston'), (2, 'nyc')");
    set.addInsertSql("INSERT INTO west.`default`.t VALUES (10, 0.5)");
    set.execute().await();

    assertThat(CatalogReads.rows(connection(east, "east-token"), "main.default.t"))
        .containsExactlyInAnyOrder(List.of(1L, "boston"), List.of(2L, "nyc"));
    assertThat(CatalogReads.rows(connection(west, "west-token"), "main.default.t"))
        .containsExactly(List.of(10L, 0.5));
    // Each server requires its own token: had a catalog sent the other's, it would have failed.
    assertThat(strings(sql.executeSql("DESCRIBE west.`default`.t"))).containsExactly("id", "score");
    assertThat(strings(sql.executeSql("DESCRIBE east.`default`.t"))).containsExactly("id", "city");
  }

  /** Registers an EXTERNAL PARQUET table over the catalog's REST API, as another engine would. */
  private void createExternalParquetTable(UnityCatalogServer server, String fullName)
      throws Exception {
    String[] parts = fullName.split("\\.");
    String body =
        String.format(
            "{\"name\":\"%s\",\"catalog_name\":\"%s\",\"schema_name\":\"%s\","
                + "\"table_type\":\"EXTERNAL\",\"data_source_format\":\"PARQUET\","
                + "\"storage_location\":\"%s\",\"columns\":[{\"name\":\"id\","
                + "\"type_name\":\"LONG\",\"type_text\":\"bigint\",\"position\":0,"
                + "\"nullable\":true}]}",
            parts[2], parts[0], parts[1], dir.resolve("parquet-files").toUri());
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(server.uri().resolve("/api/2.1/unity-catalog/tables"))
                    .header("Authorization", "Bearer " + TOKEN)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  private static UnityCatalogConnection connection(UnityCatalogServer server, String token) {
    return new UnityCatalogConnection(server.uri(), Secret.of(token));
  }

  private static void createCatalog(
      TableEnvironment sql, String name, UnityCatalogServer server, String token) {
    sql.executeSql(
        "CREATE CATALOG "
            + name
            + " WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = '"
            + token
            + "', 'catalog' = 'main')");
  }

  private static void assertFailsWith(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable statement, String message) {
    assertThatThrownBy(statement)
        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains(message));
  }

  /** The first column of every row of a result. */
  private static List<String> strings(TableResult result) throws Exception {
    List<String> values = new ArrayList<>();
    try (CloseableIterator<Row> rows = result.collect()) {
      rows.forEachRemaining(row -> values.add(String.valueOf(row.getField(0))));
    }
    return values;
  }

  private static StreamTableEnvironment sql() {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).parallelism(1).env();
    return StreamTableEnvironment.create(env);
  }
}
