/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.sparktestkit.SparkSqlException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * What an upsert job pays for a foreign {@code OPTIMIZE} of a large table: the catch-up of its key
 * index against a job restart with a full rescan, which is what such an {@code OPTIMIZE} cost
 * before the index followed the table.
 *
 * <p>A table of {@code rows} rows of distinct keys is written; an upsert job streams the upsert
 * changelog over those keys into it at 5,000 changes/s. Once its index is built and it committed,
 * the stream switches to inserts of new keys (which remove no file, so Spark's conflict check lets
 * the {@code OPTIMIZE} through: against a stream of updates spread over every file, open-source
 * Delta refuses it for as long as the stream runs), real Spark runs {@code OPTIMIZE} on the whole
 * table, and the stream goes back to updates at once. Each writer then reads the foreign version's
 * changes of its keys in the background, logging "read N row changes of its keys in M versions ...
 * in X ms" (the catch-up, per writer subtask, which the benchmark picks from the run's log), while
 * commits go on and settle by key. The job is stopped with a drained savepoint 90 s after the
 * {@code OPTIMIZE}.
 *
 * <p>Then a job without state, as a restart with a rescan would, builds its index from the
 * optimized table ("read the keys of N rows ... in X ms" per writer) and commits more of the same
 * changelog. The table is read back after each job and must hold exactly the live keys.
 *
 * <p>Arguments: {@code rows work-dir result-file}.
 */
public final class CatchUpRun {

  private static final int RATE = 5_000;
  private static final long FOLLOW_MILLIS = 90_000;
  private static final long RESCAN_CHANGES = 20_000;

  /** Changes the first job's source has generated; one source subtask, in this JVM. */
  private static final AtomicLong GENERATED = new AtomicLong();

  /** Whether the source sends inserts of new keys instead of the changelog's changes. */
  private static volatile boolean freshKeys;

  /** The changes at which the source switched between the changelog and new keys. */
  private static final List<Long> SWITCHES = new CopyOnWriteArrayList<>();

  private CatchUpRun() {}

  public static void main(String[] args) throws Exception {
    long rows = Long.parseLong(args[0]);
    Path dir = Path.of(args[1]);
    Path tableDir = dir.resolve("optimized-table");
    String table = tableDir.toUri().toString();
    String sparkTable = "delta.`" + tableDir.toAbsolutePath() + "`";
    Figures figures = new Figures("upsert catch-up on a foreign OPTIMIZE").put("table_rows", rows);
    UpsertChangelog changelog = new UpsertChangelog(rows);

    try (EmbeddedFlink flink = new EmbeddedFlink(2, dir.resolve("checkpoints"), 10);
        SparkSql spark = SparkSql.start(dir.resolve("spark"), Map.of())) {
      IndexBuildRun.writeTable(flink, table, rows, figures);

      StreamExecutionEnvironment env = IndexBuildRun.environment();
      env.fromSource(
              new DataGeneratorSource<>(
                  i -> change(changelog, rows, i),
                  Long.MAX_VALUE / 2,
                  RateLimiterStrategy.perSecond(RATE),
                  InternalTypeInfo.of(UpsertChangelog.TYPE)),
              WatermarkStrategy.noWatermarks(),
              "changelog")
          .setParallelism(1)
          .sinkTo(DeltaUpsertContender.sink(table));
      JobID job = flink.submit(env);
      Map<Long, Long> completed = new ConcurrentHashMap<>();
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      sampler.scheduleAtFixedRate(
          () -> flink.recordCompletedCheckpoints(job, completed), 0, 500, TimeUnit.MILLISECONDS);

      long submitted = System.currentTimeMillis();
      awaitCommit(tableDir, 0);
      figures.put("job_first_commit_ms", System.currentTimeMillis() - submitted);
      Thread.sleep(10_000);
      freshKeys = true;
      // Two checkpoints, so that every update before the switch is committed.
      Thread.sleep(2_500);
      long beforeOptimize = latestVersion(tableDir);
      long optimizeStarted = System.currentTimeMillis();
      int attempts = optimize(spark, sparkTable);
      long optimizeVersion =
          Long.parseLong(spark.query("DESCRIBE HISTORY " + sparkTable + " LIMIT 1").get(0).get(0));
      freshKeys = false;
      figures
          .put("optimize_seconds", (System.currentTimeMillis() - optimizeStarted) / 1e3)
          .put("optimize_attempts", attempts)
          .put("optimize_version", optimizeVersion)
          .put("versions_before_optimize", beforeOptimize + 1);

      Thread.sleep(FOLLOW_MILLIS);
      flink
          .cluster()
          .stopWithSavepoint(
              job,
              dir.resolve("savepoints").toUri().toString(),
              true,
              SavepointFormatType.CANONICAL)
          .get(5, TimeUnit.MINUTES);
      flink.awaitSuccess(job, "the upsert job");
      sampler.shutdownNow();
      long changes = GENERATED.get();
      List<Long> latencies =
          ForeignSoakFigures.commitLatencies(tableDir, completed, optimizeVersion);
      figures
          .put("changes", changes)
          .put("commits_after_optimize", latencies.size())
          .put("commit_latency_after_optimize_p50_ms", CommitLatencies.percentile(latencies, 50))
          .put("commit_latency_after_optimize_p99_ms", CommitLatencies.percentile(latencies, 99))
          .put("commit_latency_after_optimize_max_ms", CommitLatencies.percentile(latencies, 100));
      check(table, changelog.expected(rows, changes, CatchUpRun::isFresh), "the first job");

      // A job without state builds its index from the optimized table, as a restart did.
      env = IndexBuildRun.environment();
      env.fromSource(
              new DataGeneratorSource<>(
                  j -> changelog.change(changes + j),
                  RESCAN_CHANGES,
                  InternalTypeInfo.of(UpsertChangelog.TYPE)),
              WatermarkStrategy.noWatermarks(),
              "changelog")
          .setParallelism(1)
          .sinkTo(DeltaUpsertContender.sink(table));
      long before = latestVersion(tableDir);
      submitted = System.currentTimeMillis();
      JobID rescan = flink.submit(env);
      awaitCommit(tableDir, before);
      figures.put("rescan_job_first_commit_ms", System.currentTimeMillis() - submitted);
      flink.awaitSuccess(rescan, "the job without state");
      check(
          table,
          changelog.expected(rows, changes + RESCAN_CHANGES, CatchUpRun::isFresh),
          "the job without state");
    }
    figures.write(Path.of(args[args.length - 1]));
    System.exit(0);
  }

  /** Change {@code i} of the first job: the changelog's, or an insert of a new key. */
  private static RowData change(UpsertChangelog changelog, long rows, long i) {
    boolean fresh = freshKeys;
    if (fresh != (SWITCHES.size() % 2 == 1)) {
      SWITCHES.add(i);
    }
    GENERATED.set(i + 1);
    return fresh ? changelog.insertOfNewKey(i) : changelog.change(i);
  }

  /** Whether change {@code i} was an insert of a new key: after an odd number of switches. */
  private static boolean isFresh(long i) {
    long before = SWITCHES.stream().filter(s -> s <= i).count();
    return before % 2 == 1;
  }

  private static int optimize(SparkSql spark, String table) {
    for (int attempt = 1; ; attempt++) {
      try {
        spark.execute("OPTIMIZE " + table);
        return attempt;
      } catch (SparkSqlException e) {
        if (attempt >= 100 || !e.getMessage().contains("Concurrent")) {
          throw e;
        }
      }
    }
  }

  private static long latestVersion(Path table) throws java.io.IOException {
    try (java.util.stream.Stream<Path> log =
        java.nio.file.Files.list(table.resolve("_delta_log"))) {
      return log.filter(DeltaPathContender::isCommitFile)
          .mapToLong(DeltaPathContender::version)
          .max()
          .orElse(-1);
    }
  }

  /** Waits for a commit of the sink after version {@code after}. */
  private static void awaitCommit(Path table, long after) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    while (DeltaPathContender.checkpointsOf(table).keySet().stream().noneMatch(v -> v > after)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("No commit of the upsert job within 10 minutes");
      }
      Thread.sleep(200);
    }
  }

  private static void check(String table, UpsertChangelog.Contents expected, String what)
      throws Exception {
    UpsertChangelog.Contents read = DeltaUpsertContender.read(table);
    if (!read.equals(expected)) {
      throw new IllegalStateException(
          String.format(
              "After %s the table holds %,d rows (version sum %d) where %,d live keys (version"
                  + " sum %d) were expected",
              what, read.rows(), read.versionSum(), expected.rows(), expected.versionSum()));
    }
  }
}
