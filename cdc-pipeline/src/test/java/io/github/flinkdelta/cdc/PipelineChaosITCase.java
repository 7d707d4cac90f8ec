/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The MariaDB pipeline into Unity Catalog managed tables under seeded faults: the catalog failing
 * commits with 429, 500 or 503, a commit applied and its response lost, TaskManagers lost. A stream
 * of single-row inserts, updates and deletes on two tables with a primary key and inserts on one
 * without runs while the faults are armed, each after a pause the seed draws; then every table,
 * read through the catalog, must hold exactly the database's rows (none twice in the table that
 * appends), the catalog must have ratified every version of each, and every kind of fault armed
 * must have fired.
 *
 * <p>Faults come once every table is created and its snapshot landed, and the stream has no schema
 * change: Flink CDC 3.2's schema coordinator does not come through a failure in the middle of a
 * schema change ({@code docs/flink-cdc-pipeline.md}). A seed is replayed with {@code
 * -Dchaos.seed=N}.
 */
class PipelineChaosITCase {

  private static final String TOKEN = "uc-test-token";
  private static final String UPDATE_TABLE =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
  private static final int CHANGES = 1_500;
  private static final Duration CHANGE_PAUSE = Duration.ofMillis(8);
  private static final Duration PATIENCE = Duration.ofMinutes(4);
  private static final List<String> TABLES = List.of("accounts", "items", "log");

  @RegisterExtension
  static final MiniClusterExtension FLINK =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(1)
              .build());

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir static Path work;
  private static MariaDbServer db;

  /** The cluster's TaskManagers, which every seed's run loses from. */
  private static TaskManagers taskManagers;

  private MiniCluster cluster;
  private JobID job;

  /** Cancels the job a failed run left running, so that the next run gets the cluster's slots. */
  @AfterEach
  void cancelJobLeftRunning() throws Exception {
    if (job != null && !cluster.getJobStatus(job).get().isGloballyTerminalState()) {
      cluster.cancelJob(job).get();
    }
  }

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

  static Stream<Long> seeds() {
    String replay = System.getProperty("chaos.seed");
    return replay == null ? Stream.of(7L, 11L) : Stream.of(Long.parseLong(replay));
  }

  enum Fault {
    CATALOG_COMMIT_FAILS,
    CATALOG_RESPONSE_LOST,
    TASK_MANAGER_LOST
  }

  /** One fault, armed {@code pauseMillis} after the one before it. */
  record Planned(Fault fault, int pauseMillis, int burst, int status) {}

  /** Six faults drawn from {@code seed}, armed within the first ten seconds of the changes. */
  static List<Planned> plan(long seed) {
    Random random = new Random(seed);
    List<Planned> faults = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      faults.add(
          new Planned(
              Fault.values()[random.nextInt(Fault.values().length)],
              600 + random.nextInt(1_000),
              1 + random.nextInt(3),
              new int[] {429, 500, 503}[random.nextInt(3)]));
    }
    return faults;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyTableHoldsExactlyTheDatabasesRowsAndEveryVersionIsRatifiedThroughSeededFaults(
      long seed, @InjectMiniCluster MiniCluster cluster) throws Exception {
    this.cluster = cluster;
    String schema = "chaos" + seed;
    db.execute(
        "CREATE DATABASE " + schema,
        "CREATE TABLE "
            + schema
            + ".accounts (id INT PRIMARY KEY, name VARCHAR(32),"
            + " balance DECIMAL(12,2))",
        "CREATE TABLE " + schema + ".items (id BIGINT PRIMARY KEY, note TEXT)",
        "CREATE TABLE " + schema + ".log (id BIGINT NOT NULL, msg VARCHAR(64))",
        "INSERT INTO " + schema + ".accounts VALUES (1, 'a1', 1.00), (2, 'a2', 2.00)",
        "INSERT INTO " + schema + ".items VALUES (1, 'first')",
        "INSERT INTO " + schema + ".log VALUES (1, 'started')");
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    String yaml =
        db.pipelineSource(schema + ".\\.*", "5410-5414")
            + String.join(
                "\n",
                "  scan.incremental.snapshot.chunk.key-column: " + schema + ".log:id",
                PipelineRuns.unityCatalogSink(server.uri(), TOKEN) + "pipeline:",
                "  name: chaos " + seed,
                "  parallelism: 1",
                "");
    job =
        PipelineRuns.submit(
            cluster, yaml, null, Map.of("restart-strategy.fixed-delay.attempts", "100"));
    awaitCatalog(cluster, job, connection, schema);

    Map<Fault, Integer> armed = new EnumMap<>(Fault.class);
    taskManagers = taskManagers == null ? new TaskManagers(cluster) : taskManagers;
    long firstLoss = 0;
    CompletableFuture<Void> changes =
        CompletableFuture.runAsync(() -> change(schema, new Random(seed ^ 0x5DEECE66DL)));
    for (Planned planned : plan(seed)) {
      Thread.sleep(planned.pauseMillis());
      PipelineRuns.assertRunning(cluster, job);
      armed.merge(planned.fault(), 1, Integer::sum);
      switch (planned.fault()) {
        case CATALOG_COMMIT_FAILS ->
            server.faults().failNext(UPDATE_TABLE, planned.burst(), planned.status());
        case CATALOG_RESPONSE_LOST -> server.faults().dropResponseOfNext(UPDATE_TABLE, 1);
        case TASK_MANAGER_LOST -> {
          firstLoss = firstLoss == 0 ? System.currentTimeMillis() : firstLoss;
          taskManagers.replaceOne();
        }
      }
    }
    changes.get();
    awaitCatalog(cluster, job, connection, schema);
    cluster.cancelJob(job).get();

    if (armed.containsKey(Fault.CATALOG_COMMIT_FAILS)) {
      assertThat(server.faults().failuresFired(UPDATE_TABLE))
          .as("catalog commit failures that fired, of %s armed", armed)
          .isPositive();
    }
    if (armed.containsKey(Fault.CATALOG_RESPONSE_LOST)) {
      assertThat(server.faults().dropsFired(UPDATE_TABLE))
          .as("catalog responses lost, of %s armed", armed)
          .isPositive();
    }
    if (firstLoss > 0) {
      assertThat(
              cluster.getExecutionGraph(job).get().getStatusTimestamp(JobStatus.RESTARTING)
                  >= firstLoss)
          .as("the job restarted after a TaskManager was lost")
          .isTrue();
    }
    for (String table : TABLES) {
      String name = "main." + schema + "." + table;
      assertThat(server.latestVersion(name))
          .as("the catalog ratified every version of %s", name)
          .isEqualTo(CatalogTables.read(connection, name).version());
    }
  }

  /**
   * Sends {@link #CHANGES} single-row changes, drawn from {@code random}: inserts, updates and
   * deletes of accounts and items, inserts into the log.
   */
  private static void change(String schema, Random random) {
    List<Integer> accounts = new ArrayList<>(List.of(1, 2));
    List<Long> items = new ArrayList<>(List.of(1L));
    int nextAccount = 3;
    long nextItem = 2;
    long nextLog = 2;
    try (Connection connection = db.connect();
        Statement statement = connection.createStatement()) {
      for (int i = 0; i < CHANGES; i++) {
        int draw = random.nextInt(100);
        String sql;
        if (draw < 25 || accounts.isEmpty()) {
          int id = nextAccount++;
          accounts.add(id);
          sql =
              String.format(
                  "INSERT INTO %s.accounts VALUES (%d, 'a%d', %d.%02d)",
                  schema, id, id, random.nextInt(1_000), random.nextInt(100));
        } else if (draw < 45) {
          int id = accounts.get(random.nextInt(accounts.size()));
          sql =
              String.format(
                  "UPDATE %s.accounts SET balance = balance + 1.25, name = 'u%d' WHERE id = %d",
                  schema, i, id);
        } else if (draw < 55) {
          int id = accounts.remove(random.nextInt(accounts.size()));
          sql = String.format("DELETE FROM %s.accounts WHERE id = %d", schema, id);
        } else if (draw < 70 || items.isEmpty()) {
          long id = nextItem++;
          items.add(id);
          sql = String.format("INSERT INTO %s.items VALUES (%d, 'item %d')", schema, id, i);
        } else if (draw < 80) {
          long id = items.get(random.nextInt(items.size()));
          sql = String.format("UPDATE %s.items SET note = 'n%d' WHERE id = %d", schema, i, id);
        } else if (draw < 85) {
          long id = items.remove(random.nextInt(items.size()));
          sql = String.format("DELETE FROM %s.items WHERE id = %d", schema, id);
        } else {
          sql = String.format("INSERT INTO %s.log VALUES (%d, 'event %d')", schema, nextLog++, i);
        }
        statement.execute(sql);
        Thread.sleep(CHANGE_PAUSE.toMillis());
      }
    } catch (Exception e) {
      throw new IllegalStateException("The changes stopped", e);
    }
  }

  /** Waits until each table, read through the catalog, holds exactly the database's rows. */
  private static void awaitCatalog(
      MiniCluster cluster, JobID job, UnityCatalogConnection connection, String schema)
      throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    for (String table : TABLES) {
      String name = "main." + schema + "." + table;
      List<List<Object>> expected = db.rows("SELECT * FROM " + schema + "." + table);
      List<List<Object>> actual = catalogRows(connection, name);
      while (System.nanoTime() < deadline && !same(actual, expected)) {
        PipelineRuns.assertRunning(cluster, job);
        Thread.sleep(200);
        actual = catalogRows(connection, name);
      }
      assertThat(actual)
          .as("%s through the catalog against the database's rows", name)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static boolean same(List<List<Object>> actual, List<List<Object>> expected) {
    return actual.size() == expected.size()
        && new HashSet<>(actual).equals(new HashSet<>(expected));
  }

  private static List<List<Object>> catalogRows(UnityCatalogConnection connection, String name) {
    return CatalogTables.find(connection, name).isEmpty()
        ? List.of()
        : CatalogTables.read(connection, name).rows().stream()
            .map(PipelineChaosITCase::jdbcValues)
            .toList();
  }

  /** A row as Kernel reads it, with decimals at the scale JDBC gives them. */
  private static List<Object> jdbcValues(List<Object> row) {
    return row.stream()
        .map(value -> value instanceof BigDecimal decimal ? decimal.setScale(2) : value)
        .toList();
  }
}
