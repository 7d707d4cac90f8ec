/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.sparktestkit.SparkSqlException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The upsert soak ({@link SoakRun}'s {@code upsert} flavour: the upsert changelog over {@link
 * SoakRun#UPSERT_KEYS} keys into a path table with a primary key) while real Spark with Delta, in a
 * JVM of its own, changes the table: {@code OPTIMIZE} every minute and a {@code DELETE} of 1 % of
 * the keys every five minutes. Each statement is retried while Spark refuses it for a concurrent
 * commit of the job, and counted.
 *
 * <p>The job runs without a restart strategy, so any failure ends the run: a run that finishes had
 * no restart. Measured: the live heap after a full GC, sampled as the soak does; changes generated
 * per second (the source is rate-limited and back-pressured by the sink, so a stall shows as a
 * dip), compared over the minute before and the minute after each {@code OPTIMIZE} landed; each
 * commit's latency from the completion of its checkpoint to its commit file on disk. The table is
 * read back at the end and must hold exactly what the changelog and the deletes leave: each {@code
 * DELETE} names rows by the change that wrote them, below one more than the highest change the
 * table held when it ran, so its effect is known whatever the stream does meanwhile.
 *
 * <p>Arguments: {@code seconds changes-per-second checkpoint-millis work-dir result-file}.
 */
public final class ForeignStatementsSoakRun {

  private static final long OPTIMIZE_EVERY_SECONDS = 60;
  private static final long DELETE_EVERY_SECONDS = 300;

  /** Changes the source has generated so far; one source subtask, in this JVM. */
  private static final AtomicLong GENERATED = new AtomicLong();

  private ForeignStatementsSoakRun() {}

  /**
   * A statement that landed: when it started and committed, the attempts it took, its stop, and for
   * a {@code DELETE} the residue of the keys it deleted (-1 otherwise).
   */
  record Landed(
      String kind, long startedMillis, long landedMillis, int attempts, long stop, int residue) {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.parseInt(args[0]);
    int rate = Integer.parseInt(args[1]);
    long checkpointMillis = Long.parseLong(args[2]);
    Path dir = Path.of(args[3]);
    long changes = (long) seconds * rate;
    Path tableDir = dir.resolve("foreign-soak-table");
    String table = tableDir.toUri().toString();
    String sparkTable = "delta.`" + tableDir.toAbsolutePath() + "`";
    Figures figures =
        new Figures("soak upsert with foreign statements")
            .put("seconds", seconds)
            .put("changes_per_second", rate)
            .put("checkpoint_ms", checkpointMillis);
    UpsertChangelog changelog = new UpsertChangelog(SoakRun.UPSERT_KEYS);
    List<long[]> heap = new ArrayList<>();
    List<long[]> progress = new ArrayList<>();
    Map<Long, Long> checkpointCompleted = new ConcurrentHashMap<>();
    List<Landed> landed = new ArrayList<>();
    List<String> refusals = new ArrayList<>();

    try (SparkSql spark = SparkSql.start(dir.resolve("spark"), Map.of());
        EmbeddedFlink flink = new EmbeddedFlink(2, dir.resolve("checkpoints"), 10)) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(2);
      env.enableCheckpointing(checkpointMillis);
      env.fromSource(
              new DataGeneratorSource<>(
                  i -> {
                    GENERATED.set(i + 1);
                    return changelog.change(i);
                  },
                  changes,
                  RateLimiterStrategy.perSecond(rate),
                  InternalTypeInfo.of(UpsertChangelog.TYPE)),
              WatermarkStrategy.noWatermarks(),
              "changelog")
          .setParallelism(1)
          .sinkTo(DeltaUpsertContender.sink(table));

      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      ScheduledExecutorService samplers = Executors.newScheduledThreadPool(2);
      long start = System.currentTimeMillis();
      long heapEvery = Math.max(1_000, seconds * 1_000L / 60);
      samplers.scheduleAtFixedRate(
          () -> {
            System.gc();
            synchronized (heap) {
              heap.add(
                  new long[] {
                    System.currentTimeMillis() - start, memory.getHeapMemoryUsage().getUsed()
                  });
            }
          },
          heapEvery,
          heapEvery,
          TimeUnit.MILLISECONDS);
      JobID job = flink.submit(env);
      samplers.scheduleAtFixedRate(
          () -> {
            synchronized (progress) {
              progress.add(new long[] {System.currentTimeMillis(), GENERATED.get()});
            }
            flink.recordCompletedCheckpoints(job, checkpointCompleted);
          },
          0,
          500,
          TimeUnit.MILLISECONDS);

      // The statements, on this thread, while the job runs.
      long nextOptimize = start + OPTIMIZE_EVERY_SECONDS * 1_000;
      long nextDelete = start + DELETE_EVERY_SECONDS * 1_000;
      int deletes = 0;
      while (!flink.cluster().getJobStatus(job).get().isGloballyTerminalState()) {
        long now = System.currentTimeMillis();
        if (now >= nextDelete) {
          nextDelete += DELETE_EVERY_SECONDS * 1_000;
          int residue = deletes++ % 100;
          Landed delete =
              land(
                  spark,
                  "DELETE",
                  residue,
                  stop ->
                      "DELETE FROM "
                          + sparkTable
                          + " WHERE version < "
                          + stop
                          + " AND id % 100 = "
                          + residue,
                  sparkTable,
                  refusals);
          if (delete != null) {
            landed.add(delete);
          }
        } else if (now >= nextOptimize) {
          nextOptimize += OPTIMIZE_EVERY_SECONDS * 1_000;
          Landed optimize =
              land(spark, "OPTIMIZE", -1, stop -> "OPTIMIZE " + sparkTable, null, refusals);
          if (optimize != null) {
            landed.add(optimize);
          }
        } else {
          Thread.sleep(200);
        }
      }
      flink.awaitSuccess(job, "the upsert soak with foreign statements");
      samplers.shutdownNow();
      samplers.awaitTermination(10, TimeUnit.SECONDS);

      // What the changelog and the deletes leave.
      UpsertChangelog.Contents expected = expected(changelog, changes, landed);
      UpsertChangelog.Contents read = DeltaUpsertContender.read(table);
      List<Long> latencies = ForeignSoakFigures.commitLatencies(tableDir, checkpointCompleted, -1);
      figures
          .put("changes", changes)
          .put("restarts", 0)
          .put("live_keys_expected", expected.rows())
          .put("rows_read", read.rows())
          .put("optimize_landed", count(landed, "OPTIMIZE"))
          .put("delete_landed", count(landed, "DELETE"))
          .put("statements_refused_for_concurrent_commits", refusals.size())
          .put("statement_attempts", landed.stream().map(Landed::attempts).toList())
          .put(
              "statement_seconds_from_first_attempt",
              landed.stream().map(l -> (l.landedMillis() - l.startedMillis()) / 1_000.0).toList())
          .put("commits_measured", latencies.size())
          .put("commit_latency_p50_ms", CommitLatencies.percentile(latencies, 50))
          .put("commit_latency_p99_ms", CommitLatencies.percentile(latencies, 99))
          .put("commit_latency_max_ms", CommitLatencies.percentile(latencies, 100))
          .put(
              "throughput_minute_after_optimize_over_minute_before",
              ForeignSoakFigures.throughputRatios(progress, landed, "OPTIMIZE"))
          .put("files", DeltaUpsertContender.filesOf(table).data());
      HeapTrend trend = HeapTrend.of(heap, 0.2);
      figures
          .put("heap_samples", heap.size())
          .put("heap_after_warmup_first_third_mb", trend.firstThirdMb())
          .put("heap_last_third_mb", trend.lastThirdMb())
          .put("heap_max_after_warmup_mb", trend.maxMb())
          .put("heap_slope_mb_per_hour", trend.slopeMbPerHour())
          .put("heap_mb_at_each_tenth", HeapTrend.atEachTenth(heap));
      if (!read.equals(expected)) {
        throw new IllegalStateException(
            "The table does not hold what the changelog and the deletes leave: read "
                + read
                + ", expected "
                + expected
                + "\n"
                + figures);
      }
    }
    figures.write(Path.of(args[args.length - 1]));
    System.exit(0);
  }

  /** A statement for a stop: one more than the highest change the table holds when it runs. */
  private interface Statement {
    String sql(long stop);
  }

  /**
   * Runs a statement until Spark takes it; null when it never landed before the job ended.
   *
   * @param stopOf the table whose highest change gives the statement's stop, or null for none
   */
  private static Landed land(
      SparkSql spark,
      String kind,
      int residue,
      Statement statement,
      String stopOf,
      List<String> refusals) {
    long started = System.currentTimeMillis();
    for (int attempt = 1; attempt <= 1_000; attempt++) {
      long stop = -1;
      if (stopOf != null) {
        String max = spark.query("SELECT max(version) FROM " + stopOf).get(0).get(0);
        stop = max == null ? 0 : Long.parseLong(max) + 1;
      }
      try {
        spark.execute(statement.sql(stop));
        return new Landed(kind, started, System.currentTimeMillis(), attempt, stop, residue);
      } catch (SparkSqlException e) {
        if (!e.getMessage().contains("Concurrent")) {
          throw e;
        }
        refusals.add(kind);
      }
    }
    return null;
  }

  private static long count(List<Landed> landed, String kind) {
    return landed.stream().filter(l -> l.kind().equals(kind)).count();
  }

  /** The changelog replayed with each landed {@code DELETE} at its stop. */
  private static UpsertChangelog.Contents expected(
      UpsertChangelog changelog, long changes, List<Landed> landed) {
    List<UpsertChangelog.Deletion> deletes =
        landed.stream()
            .filter(statement -> statement.kind().equals("DELETE"))
            .map(statement -> new UpsertChangelog.Deletion(statement.stop(), statement.residue()))
            .toList();
    return changelog.expected(changes, deletes);
  }
}
