/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One multi-table sink on one workload, in a JVM of its own: the workload's rows into new tables at
 * parallelism 2 with a checkpoint a second on an embedded Flink cluster; then, from the tables'
 * logs or metadata, how long the tables took to come to exist and each checkpoint's commit latency
 * until it was visible in every table it wrote; then every table read back ({@link
 * DynamicReadBack}).
 *
 * <p>Arguments: {@code contender mode tables rows keys read-limit-seconds repeat
 * checkpoint-interval-ms commit-interval-ms work-dir result-file} ({@code repeat} only names the
 * run's directory; {@code commit-interval-ms} is this sink's {@code sink.dynamic.commit-interval}).
 * With a commit interval, a checkpoint's rows may become visible with a later checkpoint's commit:
 * its latency is then taken to each table's first commit of it or a later checkpoint.
 */
public final class DynamicRun {

  /** The comparison's parallelism, default checkpoint interval and heap. */
  private static final RunSettings SETTINGS = RunSettings.defaults(0);

  static final int PARALLELISM = SETTINGS.parallelism();
  static final long CHECKPOINT_INTERVAL_MS = SETTINGS.checkpointIntervalMs();
  static final String HEAP = SETTINGS.childHeap();

  private DynamicRun() {}

  public static void main(String[] args) throws Exception {
    String name = args[0];
    DynamicWorkload workload =
        new DynamicWorkload(
            DynamicWorkload.Mode.of(args[1]),
            Integer.parseInt(args[2]),
            Long.parseLong(args[3]),
            Long.parseLong(args[4]));
    long readLimitSeconds = Long.parseLong(args[5]);
    long checkpointMs = Long.parseLong(args[7]);
    long commitIntervalMs = Long.parseLong(args[8]);
    Path dir = Path.of(args[9]);
    Path result = Path.of(args[10]);
    run(name, workload, readLimitSeconds, checkpointMs, commitIntervalMs, dir, result)
        .write(result);
    System.exit(0);
  }

  static Figures run(
      String name,
      DynamicWorkload workload,
      long readLimitSeconds,
      long checkpointMs,
      long commitIntervalMs,
      Path dir,
      Path result)
      throws Exception {
    Figures figures =
        new Figures("dynamic " + name + " " + workload.mode().id() + " " + workload.tables())
            .put("contender", name)
            .put("mode", workload.mode().id())
            .put("tables", workload.tables())
            .put("rows", workload.rows())
            .put("keys", workload.upserts() ? workload.keys() : null)
            .put("parallelism", PARALLELISM)
            .put("checkpoint_interval_ms", checkpointMs);
    boolean waits = commitIntervalMs > 0 && !name.equals(IcebergDynamicContender.NAME);
    if (waits) {
      figures.put("commit_interval_ms", commitIntervalMs);
    }
    try (DynamicContender contender = DynamicContender.named(name, commitIntervalMs)) {
      Map<Long, Long> completedAt = new HashMap<>();
      long warmedUp;
      try (EmbeddedFlink flink = new EmbeddedFlink(PARALLELISM, dir.resolve("checkpoints"))) {
        contender.prepare(dir, workload, PARALLELISM);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(checkpointMs);
        contender.attach(workload.source(env));

        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc();
        try (HeapMonitor heap = new HeapMonitor()) {
          long cpuStart = os.getProcessCpuTime();
          long start = System.nanoTime();
          warmedUp = System.currentTimeMillis() + ContenderRun.WARM_UP_MILLIS;
          JobID job = flink.submit(env);
          flink.awaitSuccess(job, name + " " + workload);
          double seconds = (System.nanoTime() - start) / 1e9;
          double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
          ThroughputAfterWarmUp warm =
              ThroughputAfterWarmUp.of(
                  GenerationProgress.marks(),
                  start,
                  ContenderRun.WARM_UP_MILLIS * 1_000_000,
                  GenerationProgress.EVERY);
          List<AbstractCheckpointStats> checkpoints = flink.completedCheckpoints(job);
          checkpoints.forEach(c -> completedAt.put(c.getCheckpointId(), c.getLatestAckTimestamp()));
          figures
              .put("seconds", seconds)
              .put("rows_per_second", workload.rows() / seconds)
              // null when the job ended before its warm-up did
              .put("rows_per_second_after_warm_up", warm.rows() == 0 ? null : warm.rowsPerSecond())
              .put("cpu_seconds", cpuSeconds)
              .put("cpu_us_per_row", cpuSeconds * 1e6 / workload.rows())
              .put("checkpoints", checkpoints.size())
              .put("peak_heap_after_gc_mb", heap.peakAfterGc() / 1e6)
              .put("median_heap_after_gc_mb", median(heap.samples()) / 1e6)
              .put("max_heap_mb", Runtime.getRuntime().maxMemory() / 1e6);
        }
      }
      commitFigures(contender.commits(), completedAt, warmedUp, workload, waits, figures);
      figures.write(result);
      DynamicReadBack.check(name, contender, workload, readLimitSeconds, figures, result);
    }
    return figures;
  }

  /**
   * Table creation and commit latency from the tables' histories: from the first row generated to
   * the last table existing, and to the last table holding rows; for each checkpoint that committed
   * rows, from its completion to the moment its commit was visible in every table it wrote (also
   * for the checkpoints after the warm-up, and for those that completed once every table existed).
   */
  private static void commitFigures(
      List<TableCommits> tables,
      Map<Long, Long> completedAt,
      long warmedUp,
      DynamicWorkload workload,
      boolean waits,
      Figures figures) {
    long firstRow = DynamicWorkload.firstRowMillis();
    long lastCreated = tables.stream().mapToLong(TableCommits::createdAtMillis).max().orElse(-1);
    long lastFirstRows =
        tables.stream().mapToLong(TableCommits::firstRowsAtMillis).max().orElse(Long.MAX_VALUE);
    figures
        .put("tables_created", tables.size())
        .put(
            "seconds_to_create_all_tables",
            tables.size() == workload.tables() ? (lastCreated - firstRow) / 1e3 : null)
        .put(
            "seconds_to_rows_in_all_tables",
            tables.size() == workload.tables() && lastFirstRows != Long.MAX_VALUE
                ? (lastFirstRows - firstRow) / 1e3
                : null)
        .put(
            "table_commits", tables.stream().mapToInt(t -> t.visibleAtByCheckpoint().size()).sum());

    // Each checkpoint's last table commit, against the checkpoint it carries.
    List<CommitObserver.Visible> everywhere = new ArrayList<>();
    Map<Long, Long> identity = new HashMap<>();
    (waits
            ? TableCommits.visibleEverywhereFrom(tables, completedAt.keySet())
            : TableCommits.visibleEverywhere(tables))
        .forEach(
            (checkpoint, at) -> {
              everywhere.add(new CommitObserver.Visible(checkpoint, at));
              identity.put(checkpoint, checkpoint);
            });
    List<Long> latencies =
        CommitLatencies.ofOwnCheckpoints(completedAt, everywhere, identity, Long.MIN_VALUE);
    List<Long> afterWarmUp =
        CommitLatencies.ofOwnCheckpoints(completedAt, everywhere, identity, warmedUp);
    // Checkpoints that completed once every table existed: commits that no creation held up.
    List<Long> afterCreation =
        tables.size() == workload.tables()
            ? CommitLatencies.ofOwnCheckpoints(completedAt, everywhere, identity, lastCreated)
            : List.of();
    figures
        .put("commit_latency_checkpoints", latencies.size())
        .put("commit_latency_all_tables_p50_ms", CommitLatencies.percentile(latencies, 50))
        .put("commit_latency_all_tables_p99_ms", CommitLatencies.percentile(latencies, 99))
        .put("commit_latency_all_tables_max_ms", CommitLatencies.percentile(latencies, 100))
        .put("commit_latency_checkpoints_after_warm_up", afterWarmUp.size())
        .put(
            "commit_latency_all_tables_p99_after_warm_up_ms",
            CommitLatencies.percentile(afterWarmUp, 99))
        .put("commit_latency_checkpoints_after_creation", afterCreation.size())
        .put(
            "commit_latency_all_tables_p99_after_creation_ms",
            CommitLatencies.percentile(afterCreation, 99));
  }

  /** The median of the heap samples' bytes; 0 without samples. */
  private static double median(List<long[]> samples) {
    if (samples.isEmpty()) {
      return 0;
    }
    List<Long> bytes = new ArrayList<>(samples.stream().map(s -> s[1]).toList());
    bytes.sort(null);
    return bytes.get(bytes.size() / 2);
  }
}
