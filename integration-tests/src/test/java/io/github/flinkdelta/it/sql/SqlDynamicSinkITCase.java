/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code 'connector' = 'delta'} table in dynamic mode: each row goes to the Delta table its name
 * column names, created as rows name it; appends, and upserts by the key's other columns, on path
 * tables and in Unity Catalog.
 */
class SqlDynamicSinkITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "dynamic-sql-token";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir Path dir;

  @Test
  void rowsLandInTheTableTheirNameColumnNames() throws Exception {
    StreamTableEnvironment sql = sql();
    long rows = 2_000;
    sql.executeSql(generator(rows));
    sql.executeSql(
        "CREATE TABLE events (kind STRING, id BIGINT NOT NULL, note STRING) WITH ("
            + " 'connector' = 'delta', 'table-root' = '"
            + dir.toUri()
            + "', 'sink.dynamic.table-name-column' = 'kind',"
            + " 'sink.dynamic.table-name-template' = 'events.{value}')");
    sql.executeSql(
            "INSERT INTO events SELECT CONCAT('kind_', CAST(MOD(id, 3) AS STRING)), id,"
                + " CONCAT('note-', CAST(id AS STRING)) FROM gen")
        .await();

    for (int kind = 0; kind < 3; kind++) {
      List<List<Object>> expected = new ArrayList<>();
      for (long id = kind; id < rows; id += 3) {
        expected.add(List.of(id, "note-" + id));
      }
      assertThat(DeltaTableReader.readAll(dir.resolve("events/kind_" + kind).toUri().toString()))
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThatThrownBy(() -> sql.executeSql("SELECT * FROM events").await())
        .satisfies(
            e -> assertThat(ExceptionUtils.stringifyException(e)).contains("cannot be read"));
  }

  @Test
  void anUpdatingQueryKeepsOneRowPerKeyInEachTenantsCatalogTable() throws Exception {
    UnityCatalogServer server = catalog.server();
    StreamTableEnvironment sql = sql();
    long rows = 3_000;
    int keys = 5;
    sql.executeSql(generator(rows));
    sql.executeSql(
        "CREATE TABLE counts (tenant STRING NOT NULL, k BIGINT NOT NULL, n BIGINT,"
            + " PRIMARY KEY (tenant, k) NOT ENFORCED) WITH ('connector' = 'delta',"
            + " 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = '"
            + TOKEN
            + "', 'uc.namespace' = 'main.default',"
            + " 'sink.dynamic.table-name-column' = 'tenant')");
    sql.executeSql(
            "INSERT INTO counts SELECT tenant, k, COUNT(*) FROM (SELECT CONCAT('tenant_',"
                + " CAST(MOD(id, 2) AS STRING)) AS tenant, MOD(id, "
                + keys
                + ") AS k FROM gen) GROUP BY tenant, k")
        .await();

    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    for (int tenant = 0; tenant < 2; tenant++) {
      List<List<Object>> expected = new ArrayList<>();
      for (long k = 0; k < keys; k++) {
        long n = 0;
        for (long id = 0; id < rows; id++) {
          n += id % 2 == tenant && id % keys == k ? 1 : 0;
        }
        if (n > 0) {
          expected.add(List.of(k, n));
        }
      }
      String table = "main.default.tenant_" + tenant;
      assertThat(CatalogReads.rows(connection, table))
          .as("rows of %s", table)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static String generator(long rows) {
    return "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' ="
        + " 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '"
        + (rows - 1)
        + "', 'rows-per-second' = '2000')";
  }

  private static StreamTableEnvironment sql() {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(2).env();
    return StreamTableEnvironment.create(env);
  }
}
