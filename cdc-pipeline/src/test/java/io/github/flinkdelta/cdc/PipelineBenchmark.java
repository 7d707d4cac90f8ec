/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * The pipeline from a real database, measured: MariaDB tables loaded with rows, the {@code delta}
 * pipeline (parallelism 1 unless told, checkpoints every second) reading their snapshot, then a
 * steady rate of updates while a beacon row is updated every 100 ms. Reports the snapshot's rows
 * per second (from the job's submission to the first beacon visible in Delta, which Flink CDC reads
 * only after every snapshot chunk) and the beacon's change-to-visible latency (the database's
 * commit to the Delta table holding it, polled every 100 ms). Lives here, not in the benchmarks
 * module, because the pipeline runs on Flink 1.20 and that module on the default Flink version.
 *
 * <p>{@code ./mvnw -B -Pflink-1.20,benchmark -pl cdc-pipeline -am package -DskipTests
 * -Dbenchmark.args="TABLES ROWS CHANGES_PER_SECOND SECONDS [PARALLELISM]"}; parallelism 1 by
 * default, as the pipeline docs advise for Flink CDC 3.2 (FLINK-36690).
 */
public final class PipelineBenchmark {

  private static final long BEACON_EVERY_MILLIS = 100;

  private PipelineBenchmark() {}

  public static void main(String[] args) throws Exception {
    int tables = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int changesPerSecond = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
    int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 60;
    int parallelism = args.length > 4 ? Integer.parseInt(args[4]) : 1;
    Path work = Files.createTempDirectory("pipeline-benchmark");
    try (MariaDbServer db = MariaDbServer.start(work.resolve("mariadb"))) {
      long loading = System.nanoTime();
      load(db, tables, rows);
      System.out.printf(
          Locale.ROOT,
          "loaded %,d rows into %d tables in %.1f s%n",
          (long) tables * rows,
          tables,
          (System.nanoTime() - loading) / 1e9);
      Configuration flink = new Configuration();
      flink.set(RestOptions.PORT, 0);
      try (MiniCluster cluster =
          new MiniCluster(
              new MiniClusterConfiguration.Builder()
                  .setConfiguration(flink)
                  .setNumTaskManagers(1)
                  .setNumSlotsPerTaskManager(2)
                  .build())) {
        cluster.start();
        run(
            db,
            cluster,
            work.resolve("lake"),
            new Load(tables, rows, changesPerSecond, seconds, parallelism));
      }
    }
    // Flink CDC's binlog client leaves threads that keep the JVM alive.
    System.exit(0);
  }

  /** What one run loads and changes, and the pipeline's parallelism. */
  private record Load(int tables, int rows, int changesPerSecond, int seconds, int parallelism) {}

  private static void run(MariaDbServer db, MiniCluster cluster, Path lake, Load load)
      throws Exception {
    int tables = load.tables();
    int rows = load.rows();
    int changesPerSecond = load.changesPerSecond();
    String yaml =
        db.pipelineSource("bench.\\.*", "5400-5404")
            + String.join(
                "\n",
                "sink:",
                "  type: delta",
                "  catalog.properties.warehouse: " + lake.toUri(),
                "pipeline:",
                "  name: benchmark",
                "  parallelism: " + load.parallelism(),
                "");
    String beacon = lake.resolve("bench").resolve("beacon").toUri().toString();
    long submitted = System.nanoTime();
    JobID job =
        PipelineRuns.submit(
            cluster,
            yaml,
            null,
            Map.of(
                "execution.checkpointing.interval", "1s",
                "state.checkpoint-storage", "filesystem",
                "state.checkpoints.dir", lake.resolveSibling("checkpoints").toUri().toString()));
    // The beacon's own snapshot first, then an update of it: Flink CDC reads the binlog, and so
    // the update, only after every snapshot chunk of every table.
    while (beaconSeq(lake, beacon) < 0) {
      Thread.sleep(BEACON_EVERY_MILLIS);
    }
    db.execute("UPDATE bench.beacon SET seq = 1 WHERE id = 0");
    while (beaconSeq(lake, beacon) < 1) {
      Thread.sleep(BEACON_EVERY_MILLIS);
    }
    double snapshotSeconds = (System.nanoTime() - submitted) / 1e9;

    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean changing = new AtomicBoolean(true);
    List<Long> sentAt = Collections.synchronizedList(new ArrayList<>());
    Thread changes =
        new Thread(() -> change(db, tables, rows, changesPerSecond, sentAt, changing), "changes");
    changes.start();
    long end = System.nanoTime() + load.seconds() * 1_000_000_000L;
    long seen = 1;
    long giveUp = end + 300_000_000_000L;
    while ((System.nanoTime() < end || seen < sentAt.size() + 1) && System.nanoTime() < giveUp) {
      long now = System.nanoTime();
      if (now >= end) {
        changing.set(false);
      }
      long seq = beaconSeq(lake, beacon);
      for (long s = seen + 1; s <= seq; s++) {
        latencies.add(now - sentAt.get((int) (s - 2)));
      }
      seen = Math.max(seen, seq);
      Thread.sleep(BEACON_EVERY_MILLIS);
    }
    changes.join();
    cluster.cancelJob(job).get();

    long landed = 0;
    for (int t = 0; t < tables; t++) {
      landed +=
          DeltaTableReader.readAll(lake.resolve("bench").resolve("t" + t).toUri().toString())
              .size();
    }
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "| tables | rows | parallelism | snapshot s | snapshot rows/s | changes/s | beacons | p50 ms | p99 ms |"
            + " max ms | rows landed |%n|---|---|---|---|---|---|---|---|---|---|---|%n"
            + "| %d | %,d | %d | %.1f | %,.0f | %d | %d | %.0f | %.0f | %.0f | %,d |%n",
        tables,
        (long) tables * rows,
        load.parallelism(),
        snapshotSeconds,
        tables * (double) rows / snapshotSeconds,
        changesPerSecond,
        sorted.size(),
        percentile(sorted, 0.50),
        percentile(sorted, 0.99),
        percentile(sorted, 1.0),
        landed);
  }

  /** Tables {@code t0..}, each of {@code rows} rows, and the beacon table. */
  private static void load(MariaDbServer db, int tables, int rows) throws Exception {
    db.execute(
        "CREATE DATABASE bench",
        "CREATE TABLE bench.beacon (id INT PRIMARY KEY, seq BIGINT)",
        "INSERT INTO bench.beacon VALUES (0, 0)");
    try (Connection connection = db.connect();
        Statement statement = connection.createStatement()) {
      for (int t = 0; t < tables; t++) {
        statement.execute(
            "CREATE TABLE bench.t"
                + t
                + " (id BIGINT PRIMARY KEY, a INT, b VARCHAR(32), c DOUBLE, d DATETIME(3))");
        for (int from = 0; from < rows; from += 1_000) {
          StringBuilder insert = new StringBuilder("INSERT INTO bench.t" + t + " VALUES ");
          for (int id = from; id < Math.min(rows, from + 1_000); id++) {
            insert
                .append(id == from ? "" : ",")
                .append(
                    String.format(
                        Locale.ROOT,
                        "(%d,%d,'value %d',%d.5,'2026-01-01 00:00:00.%03d')",
                        id,
                        id % 1000,
                        id,
                        id,
                        id % 1000));
          }
          statement.execute(insert.toString());
        }
      }
    }
  }

  /**
   * Updates random rows at {@code perSecond}, and the beacon every {@value #BEACON_EVERY_MILLIS}
   * ms, recording when each beacon update committed.
   */
  private static void change(
      MariaDbServer db,
      int tables,
      int rows,
      int perSecond,
      List<Long> sentAt,
      AtomicBoolean changing) {
    SplittableRandom random = new SplittableRandom(42);
    long perTick = Math.max(1, perSecond * BEACON_EVERY_MILLIS / 1_000);
    try (Connection connection = db.connect()) {
      List<PreparedStatement> updates = new ArrayList<>();
      for (int t = 0; t < tables; t++) {
        updates.add(
            connection.prepareStatement("UPDATE bench.t" + t + " SET a = a + 1 WHERE id = ?"));
      }
      PreparedStatement beacon =
          connection.prepareStatement("UPDATE bench.beacon SET seq = ? WHERE id = 0");
      long tick = System.nanoTime();
      long seq = 1;
      while (changing.get()) {
        for (int i = 0; i < perTick; i++) {
          PreparedStatement update = updates.get(random.nextInt(tables));
          update.setLong(1, random.nextInt(rows));
          update.executeUpdate();
        }
        beacon.setLong(1, ++seq);
        beacon.executeUpdate();
        sentAt.add(System.nanoTime());
        tick += BEACON_EVERY_MILLIS * 1_000_000L;
        long wait = tick - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("The changes stopped", e);
    }
  }

  /** The beacon's sequence number in its Delta table; -1 while the table holds no row yet. */
  private static long beaconSeq(Path lake, String beacon) {
    if (!Files.isDirectory(lake.resolve("bench").resolve("beacon").resolve("_delta_log"))) {
      return -1;
    }
    List<List<Object>> rows = DeltaTableReader.readAll(beacon);
    return rows.isEmpty() ? -1 : (Long) rows.get(0).get(1);
  }

  private static double percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int index = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
    return sorted.get(Math.max(0, index)) / 1e6;
  }
}
