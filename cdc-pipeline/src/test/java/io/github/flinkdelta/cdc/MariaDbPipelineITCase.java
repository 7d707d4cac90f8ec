/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real database into Delta tables through the pipeline the docs show ({@code
 * pipelines/mysql-to-delta.yaml}, run as written but for the database's port, the warehouse and a
 * small snapshot chunk): MariaDB in a child process, Flink CDC's MySQL pipeline source, the {@code
 * delta} sink, Flink CDC's composer. Its initial snapshot of three tables, a TaskManager lost in
 * the middle of it; inserts, updates and deletes; a column added, a TaskManager lost right after, a
 * column renamed, a type widened, a column dropped; a stop with a savepoint, a table created while
 * stopped, and a resume under a new job id. Every Delta table is read back through Kernel and, at
 * the end, through delta-spark, and compared with the database's own rows.
 */
class MariaDbPipelineITCase {

  @RegisterExtension
  static final MiniClusterExtension FLINK =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(1)
              .build());

  private static final int ORDERS = 1_500;
  private static final Duration PATIENCE = Duration.ofMinutes(3);

  private static final String TOKEN = "uc-test-token";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir static Path work;

  /** The cluster and the job the test waits on: a wait ends early when the job does. */
  private MiniCluster cluster;

  private JobID job;
  private static MariaDbServer db;

  @BeforeAll
  static void startDatabase() throws Exception {
    db = MariaDbServer.start(work.resolve("mariadb"));
  }

  @AfterAll
  static void stopDatabase() {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void aDatabaseLandsExactlyThroughItsSnapshotChangesSchemaChangesLostTaskManagersAndASavepoint(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    db.execute(
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL,"
            + " email VARCHAR(128))",
        "CREATE TABLE shop.items (id INT PRIMARY KEY, title VARCHAR(64),"
            + " price DECIMAL(10,2), qty INT)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id INT, product_id INT,"
            + " created_at DATETIME(3), note TEXT)");
    List<String> seed = new ArrayList<>();
    for (int i = 1; i <= 50; i++) {
      seed.add(
          String.format("INSERT INTO shop.customers VALUES (%d, 'name %d', 'c%d@x')", i, i, i));
      seed.add(String.format("INSERT INTO shop.items VALUES (%d, 'p%d', %d.25, %d)", i, i, i, i));
    }
    for (int i = 1; i <= ORDERS; i += 100) {
      StringBuilder batch = new StringBuilder("INSERT INTO shop.orders VALUES ");
      for (int id = i; id < i + 100; id++) {
        batch.append(
            String.format(
                "%s(%d, %d, %d, '2026-01-01 10:00:00.%03d', 'note %d')",
                id == i ? "" : ", ", id, id % 50 + 1, id % 50 + 1, id % 1000, id));
      }
      seed.add(batch.toString());
    }
    db.execute(seed.toArray(String[]::new));

    Path lake = work.resolve("lake");
    String yaml = pipeline(lake);
    JobID job = submit(cluster, yaml, null);
    TaskManagers taskManagers = new TaskManagers(cluster);

    // The snapshot: a TaskManager lost once some of the orders are committed, before all are, and
    // after every table was created. (Flink CDC 3.2's schema coordinator does not come through a
    // failure in the middle of a schema change: docs/flink-cdc-pipeline.md.)
    await(
        "the smaller tables' snapshot and some of the orders' committed",
        () ->
            rows(lake, "customers").size() == 50
                && rows(lake, "items").size() == 50
                && !rows(lake, "orders").isEmpty());
    int committed = rows(lake, "orders").size();
    taskManagers.replaceOne();
    assertThat(committed).as("orders committed when the TaskManager was lost").isLessThan(ORDERS);
    awaitSame(lake, "customers", "items", "orders");
    assertThat(taskManagers.restartedSinceLastLoss(job))
        .as("the job restarted after the TaskManager was lost")
        .isTrue();

    db.execute(
        "INSERT INTO shop.customers VALUES (51, 'Zoë ✓', NULL)",
        "UPDATE shop.customers SET email = 'new@x' WHERE id = 2",
        "DELETE FROM shop.customers WHERE id = 3",
        "UPDATE shop.items SET qty = qty + 100 WHERE id <= 10",
        "DELETE FROM shop.orders WHERE id <= 100",
        "UPDATE shop.orders SET id = 100000 WHERE id = 500",
        "ALTER TABLE shop.items ADD COLUMN color VARCHAR(16) AFTER title",
        "INSERT INTO shop.items VALUES (51, 'lamp', 'red', 9.99, 3)");
    // Lost once the schema change is over: the row inserted after it has landed.
    await(
        "the row inserted after the added column",
        () -> rows(lake, "items").stream().anyMatch(row -> row.get(0).equals(51)));
    assertThat(columns(lake, "items")).containsExactly("id", "title", "color", "price", "qty");
    taskManagers.replaceOne();
    db.execute(
        "UPDATE shop.items SET color = 'blue' WHERE id = 1",
        "ALTER TABLE shop.customers RENAME COLUMN email TO mail",
        "UPDATE shop.customers SET mail = 'renamed@x' WHERE id = 4",
        "ALTER TABLE shop.items MODIFY COLUMN qty BIGINT",
        "UPDATE shop.items SET qty = 9000000000 WHERE id = 2",
        "ALTER TABLE shop.orders DROP COLUMN note",
        "INSERT INTO shop.orders VALUES (200000, 1, 1, '2026-02-01 00:00:00.5')");
    awaitSame(lake, "customers", "items", "orders");
    assertThat(columns(lake, "customers")).containsExactly("id", "name", "mail");
    assertThat(columns(lake, "orders"))
        .containsExactly("id", "customer_id", "product_id", "created_at");

    String savepoint =
        cluster
            .stopWithSavepoint(
                job,
                work.resolve("savepoints").toUri().toString(),
                false,
                SavepointFormatType.CANONICAL)
            .get();
    assertThat(taskManagers.restartedSinceLastLoss(job))
        .as("the job restarted after the second TaskManager was lost")
        .isTrue();
    db.execute(
        "CREATE TABLE shop.reviews (id INT PRIMARY KEY, product_id INT, stars TINYINT)",
        "INSERT INTO shop.reviews VALUES (1, 1, 5), (2, 2, 3)",
        "UPDATE shop.customers SET name = 'while stopped' WHERE id = 5");
    JobID resumed = submit(cluster, yaml, savepoint);
    assertThat(resumed).isNotEqualTo(job);
    db.execute(
        "INSERT INTO shop.reviews VALUES (3, 3, 4)",
        "DELETE FROM shop.customers WHERE id = 6",
        "UPDATE shop.orders SET product_id = 7 WHERE id = 200000");
    awaitSame(lake, "customers", "items", "orders", "reviews");
    cluster.cancelJob(resumed).get();

    // delta-spark reads the same rows: deletion vectors, column mapping and widened types applied.
    try (SparkSql spark = SparkSql.start(work.resolve("spark"), Map.of())) {
      for (String table : List.of("customers", "items", "orders", "reviews")) {
        String columns = table.equals("orders") ? "id, customer_id, product_id" : "*";
        assertThat(
                spark.query(
                    "SELECT "
                        + columns
                        + " FROM delta.`"
                        + lake.resolve("shop").resolve(table).toUri()
                        + "`"))
            .as("shop.%s read by delta-spark against the database's rows", table)
            .containsExactlyInAnyOrderElementsOf(
                strings(db.rows("SELECT " + columns + " FROM shop." + table)));
      }
    }
  }

  /** Rows as Spark's SQL gives them back: each value as its string, SQL NULL as null. */
  private static List<List<String>> strings(List<List<Object>> rows) {
    return rows.stream()
        .map(
            row ->
                row.stream()
                    .map(
                        value ->
                            value == null
                                ? null
                                : value instanceof BigDecimal decimal
                                    ? decimal.toPlainString()
                                    : value.toString())
                    .toList())
        .toList();
  }

  @Test
  void aDatabaseLandsInUnityCatalogManagedTablesEachVersionRatifiedByTheCatalog(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    landsInManagedTables(
        cluster, "crm", PipelineRuns.unityCatalogSink(server.uri(), TOKEN), connection, "main");
    for (String table : List.of("accounts", "notes")) {
      String name = "main.crm." + table;
      assertThat(server.latestVersion(name))
          .as("the catalog ratified every version of %s", name)
          .isEqualTo(CatalogTables.read(connection, name).version());
    }
  }

  /**
   * The same flow into a real Unity Catalog endpoint named by {@code UC_URI}, {@code UC_TOKEN} and
   * {@code UC_CATALOG} (a fresh schema {@code crm_<millis>} of that catalog each run, created by
   * the sink); skipped, saying why, when they are unset. Rows are read back through the catalog, at
   * the version the catalog gives as its latest.
   */
  @Test
  void aDatabaseLandsInManagedTablesOfARealUnityCatalogEndpoint(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    for (String variable : List.of("UC_URI", "UC_TOKEN", "UC_CATALOG")) {
      assumeTrue(
          System.getenv(variable) != null,
          "Skipped: set UC_URI, UC_TOKEN and UC_CATALOG to run the pipeline against a real Unity"
              + " Catalog endpoint; "
              + variable
              + " is unset.");
    }
    URI uri = URI.create(System.getenv("UC_URI"));
    String token = System.getenv("UC_TOKEN");
    String catalogName = System.getenv("UC_CATALOG");
    landsInManagedTables(
        cluster,
        "crm_" + System.currentTimeMillis(),
        PipelineRuns.unityCatalogSink(uri, token, catalogName),
        new UnityCatalogConnection(uri, Secret.of(token)),
        catalogName);
  }

  /**
   * Two tables of {@code database}, one keyed, one not, through the pipeline into managed tables of
   * {@code catalogName}: their snapshot, then an insert, an update, a delete, an added column and
   * the update of it; each read back through the catalog against the database's rows.
   */
  private void landsInManagedTables(
      MiniCluster cluster,
      String database,
      String sink,
      UnityCatalogConnection connection,
      String catalogName)
      throws Exception {
    db.execute(
        "CREATE DATABASE " + database,
        "CREATE TABLE "
            + database
            + ".accounts (id INT PRIMARY KEY, name VARCHAR(64), balance DECIMAL(12,2))",
        "CREATE TABLE " + database + ".notes (body VARCHAR(200))",
        "INSERT INTO "
            + database
            + ".accounts VALUES (1, 'ann', 10.00), (2, 'bob', 20.50), (3, 'cy', 0.00)",
        "INSERT INTO " + database + ".notes VALUES ('first'), ('second')");
    String yaml =
        db.pipelineSource(database + ".\\.*", "5405-5409")
            + String.join(
                "\n",
                "  scan.incremental.snapshot.chunk.key-column: " + database + ".notes:body",
                sink + "pipeline:",
                "  name: " + database + " into unity catalog",
                "  parallelism: 1",
                "  schema.change.behavior: evolve",
                "");
    JobID job = submit(cluster, yaml, null);
    String tables = catalogName + "." + database;
    awaitCatalog(connection, database, tables, "accounts", "notes");

    db.execute(
        "INSERT INTO " + database + ".accounts VALUES (4, 'dee', 1.25)",
        "UPDATE " + database + ".accounts SET balance = 99.99 WHERE id = 1",
        "DELETE FROM " + database + ".accounts WHERE id = 2",
        "ALTER TABLE " + database + ".accounts ADD COLUMN tier VARCHAR(8)",
        "UPDATE " + database + ".accounts SET tier = 'gold' WHERE id = 3",
        "INSERT INTO " + database + ".notes VALUES ('third')");
    awaitCatalog(connection, database, tables, "accounts", "notes");
    cluster.cancelJob(job).get();
    for (String table : List.of("accounts", "notes")) {
      String name = tables + "." + table;
      assertThat(CatalogTables.find(connection, name).orElseThrow().managed())
          .as("%s managed", name)
          .isTrue();
    }
  }

  /** Cancels the job a failed test left running, so that the next test gets the cluster's slots. */
  @AfterEach
  void cancelJobLeftRunning() throws Exception {
    if (job != null && !cluster.getJobStatus(job).get().isGloballyTerminalState()) {
      cluster.cancelJob(job).get();
    }
  }

  /** Submits the pipeline through {@link PipelineRuns}; the waits watch the job it runs as. */
  private JobID submit(MiniCluster cluster, String yaml, String savepoint) throws Exception {
    this.cluster = cluster;
    this.job = PipelineRuns.submit(cluster, yaml, savepoint);
    return job;
  }

  /**
   * Waits until each table of {@code database}, read through the catalog as {@code
   * catalogSchema.table}, holds the database's rows.
   */
  private void awaitCatalog(
      UnityCatalogConnection connection, String database, String catalogSchema, String... tables)
      throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    for (String table : tables) {
      String name = catalogSchema + "." + table;
      List<List<Object>> expected = databaseRows(database + "." + table);
      List<List<Object>> actual = catalogRows(connection, name);
      while (System.nanoTime() < deadline && !same(actual, expected)) {
        PipelineRuns.assertRunning(cluster, job);
        Thread.sleep(200);
        expected = databaseRows(database + "." + table);
        actual = catalogRows(connection, name);
      }
      assertThat(actual)
          .as("%s through the catalog against the database's rows", name)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static List<List<Object>> catalogRows(UnityCatalogConnection connection, String name) {
    return CatalogTables.find(connection, name).isEmpty()
        ? List.of()
        : CatalogTables.read(connection, name).rows();
  }

  /** The docs' pipeline, on this test's database and warehouse, its snapshot in small chunks. */
  private static String pipeline(Path lake) throws Exception {
    String yaml =
        Files.readString(
            Path.of(
                MariaDbPipelineITCase.class.getResource("/pipelines/mysql-to-delta.yaml").toURI()));
    return yaml.replace("port: 3306", "port: " + db.port())
        .replace("file:///tmp/lake", lake.toUri().toString())
        .replace(
            "  scan.newly-added-table.enabled: true",
            "  scan.newly-added-table.enabled: true\n  scan.incremental.snapshot.chunk.size: 100");
  }

  /** Waits until every table holds exactly the database's rows, then asserts that it does. */
  private void awaitSame(Path lake, String... tables) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    for (String table : tables) {
      List<List<Object>> expected = databaseRows("shop." + table);
      while (System.nanoTime() < deadline && !same(rows(lake, table), expected)) {
        PipelineRuns.assertRunning(cluster, job);
        Thread.sleep(200);
        expected = databaseRows("shop." + table);
      }
      assertThat(rows(lake, table))
          .as("Delta table shop.%s against the database's rows", table)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static boolean same(List<List<Object>> actual, List<List<Object>> expected) {
    return actual.size() == expected.size()
        && new java.util.HashSet<>(actual).equals(new java.util.HashSet<>(expected));
  }

  private void await(String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (!condition.getAsBoolean()) {
      PipelineRuns.assertRunning(cluster, job);
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Waited " + PATIENCE + " for " + what);
      }
      Thread.sleep(100);
    }
  }

  /**
   * The table's rows as Kernel reads them, small integers as ints (as JDBC gives them); none while
   * the table does not exist.
   */
  private static List<List<Object>> rows(Path lake, String table) {
    Path path = lake.resolve("shop").resolve(table);
    if (!Files.isDirectory(path.resolve("_delta_log"))) {
      return List.of();
    }
    return DeltaTableReader.readAll(path.toUri().toString()).stream()
        .map(
            row ->
                row.stream()
                    .map(
                        value ->
                            value instanceof Byte || value instanceof Short
                                ? (Object) ((Number) value).intValue()
                                : value)
                    .toList())
        .toList();
  }

  private static List<String> columns(Path lake, String table) {
    Path path = lake.resolve("shop").resolve(table);
    if (!Files.isDirectory(path.resolve("_delta_log"))) {
      return List.of();
    }
    return TableManager.loadSnapshot(path.toUri().toString())
        .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())))
        .getSchema()
        .fieldNames();
  }

  /** The rows of {@code table} ({@code db.table}), each value as Kernel's reader gives it. */
  private static List<List<Object>> databaseRows(String table) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : db.rows("SELECT * FROM " + table)) {
      List<Object> values = new ArrayList<>();
      for (Object value : row) {
        values.add(
            value instanceof LocalDateTime time
                ? time.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + time.getNano() / 1_000
                : value);
      }
      rows.add(values);
    }
    return rows;
  }
}
