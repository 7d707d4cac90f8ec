/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upserts from Flink SQL: a table with {@code PRIMARY KEY ... NOT ENFORCED} takes an updating query
 * (a {@code GROUP BY}) and a changelog source, and holds one row per key with its latest value; a
 * Unity Catalog table created with a key records it, so a later insert finds it.
 */
@Tag("smoke")
class SqlUpsertITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "upsert-token";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir Path dir;

  @Test
  void aGroupByKeepsOneRowPerKeyWithItsFinalCount() throws Exception {
    String path = dir.resolve("counts").toUri().toString();
    StreamTableEnvironment sql = sql();
    long rows = 3_000;
    int keys = 7;
    sql.executeSql(
        "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' ="
            + " 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '"
            + (rows - 1)
            + "', 'rows-per-second' = '2000')");
    sql.executeSql(
        "CREATE TABLE counts (k BIGINT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH"
            + " ('connector' = 'delta', 'table-path' = '"
            + path
            + "')");
    sql.executeSql(
            "INSERT INTO counts SELECT MOD(id, "
                + keys
                + "), COUNT(*) FROM gen GROUP BY MOD(id, "
                + keys
                + ")")
        .await();

    List<List<Object>> expected = new ArrayList<>();
    for (long k = 0; k < keys; k++) {
      long n = rows / keys + (k < rows % keys ? 1 : 0);
      expected.add(List.of(k, n));
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
    // Every count the query emitted was written; all but the last of each key are deleted.
    assertThat(DeltaLogFiles.addsFrom(path, 0)).anyMatch(add -> add.hasNonNull("deletionVector"));
  }

  @Test
  void aChangelogSourceIsMirroredExactly() throws Exception {
    String path = dir.resolve("mirror").toUri().toString();
    StreamTableEnvironment sql = sql();
    DataStream<Row> changes =
        sql.toChangelogStream(sql.fromValues(1)) // only for the environment
            .getExecutionEnvironment()
            .fromData(
                Row.ofKind(RowKind.INSERT, 1L, "a"),
                Row.ofKind(RowKind.INSERT, 2L, "b"),
                Row.ofKind(RowKind.UPDATE_BEFORE, 1L, "a"),
                Row.ofKind(RowKind.UPDATE_AFTER, 1L, "a2"),
                Row.ofKind(RowKind.DELETE, 2L, "b"),
                Row.ofKind(RowKind.DELETE, 9L, "never there"),
                Row.ofKind(RowKind.INSERT, 3L, "c"),
                Row.ofKind(RowKind.INSERT, 3L, "c, redelivered"))
            .returns(
                org.apache.flink.api.common.typeinfo.Types.ROW_NAMED(
                    new String[] {"id", "v"},
                    org.apache.flink.api.common.typeinfo.Types.LONG,
                    org.apache.flink.api.common.typeinfo.Types.STRING));
    sql.createTemporaryView(
        "changes",
        sql.fromChangelogStream(
            changes,
            Schema.newBuilder()
                .column("id", "BIGINT NOT NULL")
                .column("v", "STRING")
                .primaryKey("id")
                .build(),
            ChangelogMode.all()));
    sql.executeSql(
        "CREATE TABLE mirror (id BIGINT NOT NULL, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH"
            + " ('connector' = 'delta', 'table-path' = '"
            + path
            + "')");
    sql.executeSql("INSERT INTO mirror SELECT * FROM changes").await();

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(List.of(1L, "a2"), List.of(3L, "c, redelivered"));
  }

  @Test
  void aCatalogTableCreatedWithAKeyRecordsItForLaterInserts() throws Exception {
    UnityCatalogServer server = catalog.server();
    StreamTableEnvironment sql = sql();
    sql.executeSql(
        "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = '"
            + TOKEN
            + "', 'catalog' = 'main')");
    sql.executeSql(
        "CREATE TABLE uc.`default`.latest (id BIGINT NOT NULL, region STRING, v BIGINT,"
            + " PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (region)");
    CatalogBaseTable described =
        sql.getCatalog("uc").orElseThrow().getTable(new ObjectPath("default", "latest"));
    assertThat(described.getUnresolvedSchema().getPrimaryKey())
        .hasValueSatisfying(key -> assertThat(key.getColumnNames()).containsExactly("id"));

    long rows = 2_000;
    int keys = 5;
    sql.executeSql(
        "CREATE TEMPORARY TABLE default_catalog.default_database.gen (id BIGINT) WITH ("
            + " 'connector' = 'datagen', 'fields.id.kind' = 'sequence',"
            + " 'fields.id.start' = '0', 'fields.id.end' = '"
            + (rows - 1)
            + "', 'rows-per-second' = '2000')");
    // No DDL in this statement: the key comes from the catalog. The region moves with the count.
    sql.executeSql(
            "INSERT INTO uc.`default`.latest SELECT k, CASE WHEN MOD(n, 2) = 0 THEN 'even' ELSE"
                + " 'odd' END, n FROM (SELECT MOD(id, "
                + keys
                + ") AS k, COUNT(*) AS n FROM default_catalog.default_database.gen GROUP BY"
                + " MOD(id, "
                + keys
                + "))")
        .await();

    List<List<Object>> expected = new ArrayList<>();
    for (long k = 0; k < keys; k++) {
      long n = rows / keys;
      expected.add(List.of(k, n % 2 == 0 ? "even" : "odd", n));
    }
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    assertThat(CatalogReads.rows(connection, "main.default.latest"))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  private static StreamTableEnvironment sql() {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(2).env();
    return StreamTableEnvironment.create(env);
  }
}
