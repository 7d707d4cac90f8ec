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
import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import io.unitycatalog.client.model.ColumnInfo;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code ALTER TABLE} on the Unity Catalog catalog through a real {@code TableEnvironment}, against
 * the embedded Unity Catalog server over HTTP, through each commit API: every schema change is one
 * table version the catalog ratifies, the rows before and after it read back exactly, and the
 * catalog lists the columns the Delta schema has.
 */
class UnityCatalogAlterTableITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "alter-token";
  private static final String TABLE = "main.default.orders";
  private static final String DELTA_COMMIT =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @ParameterizedTest
  @EnumSource(
      value = CommitApi.class,
      names = {"LEGACY", "DELTA_V1"})
  void widenRelaxAddAndCommentAreCatalogCommitsAndRowsReadBackExactly(CommitApi api)
      throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = sql(api);
    sql.executeSql(
        "CREATE TABLE orders (id INT NOT NULL, amount INT, who STRING NOT NULL COMMENT 'buyer')");
    sql.executeSql(
            "INSERT INTO orders VALUES (1, 10, 'ann'), (2, -2147483648, 'bob'),"
                + " (3, 2147483647, 'cy')")
        .await();
    long before = server.latestVersion(TABLE);

    sql.executeSql("ALTER TABLE orders ADD (note STRING COMMENT 'free text')");
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 1);
    // A widening and a comment in one statement: one version.
    sql.executeSql("ALTER TABLE orders MODIFY (amount BIGINT COMMENT 'in cents')");
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 2);
    sql.executeSql("ALTER TABLE orders MODIFY (who STRING)");
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 3);
    // Nothing to change: no version.
    sql.executeSql("ALTER TABLE orders MODIFY (amount BIGINT)");
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 3);

    assertThat(describe(sql))
        .containsExactly(
            List.of("id", "INT", false, ""),
            List.of("amount", "BIGINT", true, "in cents"),
            List.of("who", "STRING", true, "buyer"),
            List.of("note", "STRING", true, "free text"));

    sql.executeSql(
            "INSERT INTO orders VALUES (4, 9000000000000000000, CAST(NULL AS STRING), 'big'),"
                + " (5, -9000000000000000000, 'dee', CAST(NULL AS STRING))")
        .await();
    CatalogReads.Read read = CatalogReads.read(connection(server, api), TABLE);
    assertThat(read.rows())
        .containsExactlyInAnyOrder(
            Arrays.asList(1, 10L, "ann", null),
            Arrays.asList(2, -2147483648L, "bob", null),
            Arrays.asList(3, 2147483647L, "cy", null),
            Arrays.asList(4, 9_000_000_000_000_000_000L, null, "big"),
            Arrays.asList(5, -9_000_000_000_000_000_000L, "dee", null));
    assertThat(read.version()).isEqualTo(server.latestVersion(TABLE));

    // The catalog's view of the columns is the Delta schema's.
    List<ColumnInfo> listed = CatalogReads.columns(connection(server, api), TABLE);
    assertThat(CatalogReads.describe(listed)).isEqualTo(CatalogReads.describe(read.schema()));
    assertThat(CatalogReads.describe(listed))
        .containsExactly(
            Arrays.asList("id", "integer", false, null),
            Arrays.asList("amount", "long", true, "in cents"),
            Arrays.asList("who", "string", true, "buyer"),
            Arrays.asList("note", "string", true, "free text"));
    assertThat(listed)
        .extracting(c -> List.of(c.getTypeName().getValue(), c.getTypeText(), c.getPosition()))
        .containsExactly(
            List.of("INT", "int", 0),
            List.of("LONG", "bigint", 1),
            List.of("STRING", "string", 2),
            List.of("STRING", "string", 3));
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitApi.class,
      names = {"LEGACY", "DELTA_V1"})
  void everyKindOfWideningReadsBackOldAndNewRowsExactly(CommitApi api) throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = sql(api);
    sql.executeSql(
        "CREATE TABLE orders (b TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DATE,"
            + " m DECIMAL(5, 2), k INT)");
    sql.executeSql(
            "INSERT INTO orders VALUES (CAST(-128 AS TINYINT), CAST(-32768 AS SMALLINT),"
                + " -2147483648, -9223372036854775807, CAST(0.5 AS FLOAT), DATE '2024-02-29',"
                + " CAST(-999.99 AS DECIMAL(5, 2)), 2147483647)")
        .await();
    long before = server.latestVersion(TABLE);

    sql.executeSql(
        "ALTER TABLE orders MODIFY (b SMALLINT, s INT, i DOUBLE, l DECIMAL(20, 0), f DOUBLE,"
            + " d TIMESTAMP(6), m DECIMAL(8, 3), k DECIMAL(12, 2))");
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 1);
    sql.executeSql(
            "INSERT INTO orders VALUES (CAST(32767 AS SMALLINT), 2147483647, 1.5E300,"
                + " CAST('99999999999999999999' AS DECIMAL(20, 0)), 1.0E300,"
                + " TIMESTAMP '2024-03-01 12:34:56.789012', CAST(99999.999 AS DECIMAL(8, 3)),"
                + " CAST(9999999999.99 AS DECIMAL(12, 2)))")
        .await();

    long leapDay = java.time.LocalDate.of(2024, 2, 29).toEpochDay() * 86_400_000_000L;
    long later =
        java.time.LocalDateTime.of(2024, 3, 1, 12, 34, 56, 789_012_000)
                    .toEpochSecond(java.time.ZoneOffset.UTC)
                * 1_000_000L
            + 789_012L;
    assertThat(CatalogReads.rows(connection(server, api), TABLE))
        .containsExactlyInAnyOrder(
            List.of(
                (short) -128,
                -32768,
                -2147483648.0,
                new BigDecimal("-9223372036854775807"),
                0.5,
                leapDay,
                new BigDecimal("-999.990"),
                new BigDecimal("2147483647.00")),
            List.of(
                (short) 32767,
                2147483647,
                1.5e300,
                new BigDecimal("99999999999999999999"),
                1.0e300,
                later,
                new BigDecimal("99999.999"),
                new BigDecimal("9999999999.99")));
  }

  @Test
  void anAlterThatMeetsAConcurrentCommitIsAppliedOnTheNewVersion() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment alter = sql(CommitApi.DELTA_V1);
    alter.executeSql("CREATE TABLE orders (id INT, amount INT)");
    alter.executeSql("INSERT INTO orders VALUES (1, 10)").await();
    long before = server.latestVersion(TABLE);
    // The ALTER's commit waits at the catalog while another writer commits a version through
    // the legacy API; the ALTER's version is then taken (409), and Kernel, finding a blind append
    // in it, commits the schema change on the version after.
    int commits = server.faults().calls(DELTA_COMMIT);
    server.faults().delay(DELTA_COMMIT, Duration.ofSeconds(10));
    CompletableFuture<Void> altering =
        CompletableFuture.runAsync(
            () -> alter.executeSql("ALTER TABLE orders MODIFY (amount BIGINT)"));
    while (server.faults().calls(DELTA_COMMIT) == commits) {
      Thread.sleep(20);
    }
    sql(CommitApi.LEGACY).executeSql("INSERT INTO orders VALUES (2, 20)").await();
    server.faults().clear();
    altering.get(60, TimeUnit.SECONDS);

    assertThat(server.faults().calls(DELTA_COMMIT))
        .as("the ALTER's commit, refused, then retried")
        .isEqualTo(commits + 2);
    assertThat(server.latestVersion(TABLE)).isEqualTo(before + 2);
    CatalogReads.Read read = CatalogReads.read(connection(server, CommitApi.DELTA_V1), TABLE);
    assertThat(read.rows()).containsExactlyInAnyOrder(List.of(1, 10L), List.of(2, 20L));
    assertThat(CatalogReads.describe(read.schema()))
        .containsExactly(
            Arrays.asList("id", "integer", true, null),
            Arrays.asList("amount", "long", true, null));
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitApi.class,
      names = {"LEGACY", "DELTA_V1"})
  void refusedChangesNameTheTableTheColumnAndWhyAndCommitNothing(CommitApi api) throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = sql(api);
    sql.executeSql("CREATE TABLE orders (id INT NOT NULL, amount INT, born DATE, tags ARRAY<INT>)");
    long before = server.latestVersion(TABLE);
    List<List<Object>> described = describe(sql);

    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (amount SMALLINT)",
        "Cannot alter main.default.orders: the type of column 'amount' cannot change from INT to"
            + " SMALLINT: that narrows it");
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (amount STRING)",
        "the type of column 'amount' cannot change from INT to STRING: Delta cannot read the"
            + " values already in the table as the new type");
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (amount INT NOT NULL)",
        "Cannot alter main.default.orders: column 'amount' cannot become NOT NULL");
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (tags ARRAY<BIGINT>)",
        "the type of column 'tags' cannot change from ARRAY<INT> to ARRAY<BIGINT>: Delta widens"
            + " primitive types only");
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (born INT)",
        "the type of column 'born' cannot change from DATE to INT");
    assertRefused(
        sql,
        "ALTER TABLE orders RENAME amount TO total",
        "Cannot alter main.default.orders: renaming column 'amount' to 'total' is not supported");
    assertRefused(
        sql,
        "ALTER TABLE orders DROP (amount)",
        "Cannot alter main.default.orders: dropping column 'amount' is not supported");
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (amount INT FIRST)",
        "Cannot alter main.default.orders: moving column 'amount' is not supported");
    assertRefused(
        sql,
        "ALTER TABLE orders ADD (note STRING FIRST)",
        "Cannot alter main.default.orders: adding column 'note' at FIRST is not supported");
    assertRefused(
        sql,
        "ALTER TABLE orders ADD (note STRING NOT NULL)",
        "Cannot add column 'note' to main.default.orders: an added column must be nullable");
    // A statement with one refused change commits none of its changes.
    assertRefused(
        sql,
        "ALTER TABLE orders MODIFY (amount BIGINT, born INT)",
        "the type of column 'born' cannot change from DATE to INT");

    assertThat(server.latestVersion(TABLE)).isEqualTo(before);
    assertThat(describe(sql)).isEqualTo(described);
  }

  private static void assertRefused(TableEnvironment sql, String statement, String message) {
    assertThatThrownBy(() -> sql.executeSql(statement))
        .as(statement)
        .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains(message));
  }

  /** Name, type, nullability and comment of each column, as {@code DESCRIBE} shows them. */
  private static List<List<Object>> describe(TableEnvironment sql) throws Exception {
    List<List<Object>> columns = new ArrayList<>();
    try (CloseableIterator<Row> rows = sql.executeSql("DESCRIBE orders").collect()) {
      // name, type, null, key, extras, watermark, and comment when a column has one
      rows.forEachRemaining(
          row -> {
            Object comment = row.getArity() > 6 ? row.getField(6) : null;
            columns.add(
                List.of(
                    row.getField(0),
                    row.getField(1),
                    row.getField(2),
                    comment == null ? "" : comment));
          });
    }
    return columns;
  }

  private static UnityCatalogConnection connection(UnityCatalogServer server, CommitApi api) {
    return new UnityCatalogConnection(
        server.uri(), new UnityCatalogConnection.StaticToken(Secret.of(TOKEN)), api);
  }

  private TableEnvironment sql(CommitApi api) {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + catalog.server().uri()
            + "', 'uc.token' = '"
            + TOKEN
            + "', 'catalog' = 'main', 'uc.commit-api' = '"
            + api
            + "')");
    sql.executeSql("USE CATALOG uc");
    return sql;
  }
}
