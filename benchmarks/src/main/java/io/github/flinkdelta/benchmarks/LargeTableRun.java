/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;

/**
 * A job on a big table: a table of {@code files} files, each in a partition of its own, or of
 * {@code versions} versions with a Delta checkpoint every ten; then the time to load its snapshot,
 * to commit one file to it, for a streaming job to reach its first commit, the job's checkpoint
 * state, and how long cancelling the job takes while it is starting.
 *
 * <p>Arguments: {@code files|versions count work-dir result-file}.
 */
public final class LargeTableRun {

  private static final int FILES_PER_COMMIT = 100_000;
  private static final int JOB_ROWS = 200_000;

  private LargeTableRun() {}

  public static void main(String[] args) throws Exception {
    String shape = args[0];
    int count = Integer.parseInt(args[1]);
    Path dir = Path.of(args[2]);
    Configuration conf = HadoopConfigurations.of(Map.of());
    String table = dir.resolve(shape + "-table").toUri().toString();
    Figures figures = new Figures("large-table-" + shape).put(shape, count);

    long start = System.nanoTime();
    DataFile template = SyntheticTables.template(table, conf);
    Engine engine = DefaultEngine.create(conf);
    if (shape.equals("files")) {
      try (DeltaTable delta = SyntheticTables.open(table, conf)) {
        for (int first = 0, txn = 1; first < count; first += FILES_PER_COMMIT, txn++) {
          int batch = Math.min(FILES_PER_COMMIT, count - first);
          delta.commit(SyntheticTables.APP_ID, txn, SyntheticTables.files(template, first, batch));
        }
      }
      TableManager.loadSnapshot(table).build(engine).writeCheckpoint(engine);
    } else {
      // A streaming table as the sink leaves it: a checkpoint a few versions before the end.
      Path log = Path.of(java.net.URI.create(table)).resolve("_delta_log");
      SyntheticTables.appendVersions(log, 1, count - 5, template);
      TableManager.loadSnapshot(table).build(engine).writeCheckpoint(engine);
      SyntheticTables.appendVersions(log, count - 4, count, template);
    }
    figures
        .put("table_version", TableManager.loadSnapshot(table).build(engine).getVersion())
        .put("build_seconds", (System.nanoTime() - start) / 1e9);

    start = System.nanoTime();
    try (DeltaTable delta = SyntheticTables.open(table, conf)) {
      figures.put("snapshot_load_ms", (System.nanoTime() - start) / 1e6);
      start = System.nanoTime();
      delta.transactionVersion("a-new-app");
      figures.put("transaction_lookup_ms", (System.nanoTime() - start) / 1e6);
      start = System.nanoTime();
      delta.commit(
          "one-more-commit", 1, SyntheticTables.files(template, Integer.MAX_VALUE + 1L, 1));
      figures.put("commit_one_file_ms", (System.nanoTime() - start) / 1e6);
    }

    try (EmbeddedFlink flink = new EmbeddedFlink(2, dir.resolve("checkpoints"))) {
      firstCommit(flink, table, dir, figures);
      cancelWhileStarting(flink, table, figures);
    }
    figures.write(Path.of(args[3]));
    System.exit(0);
  }

  /**
   * A streaming job on the table, with checkpoints every second: from building it (the sink opens
   * the table) to its first checkpoint and its first visible commit, and its checkpoint state.
   */
  private static void firstCommit(EmbeddedFlink flink, String table, Path dir, Figures figures)
      throws Exception {
    long before;
    try (DeltaTable delta = SyntheticTables.open(table, HadoopConfigurations.of(Map.of()))) {
      before = delta.snapshot().getVersion();
    }
    Path log = Path.of(java.net.URI.create(table)).resolve("_delta_log");
    try (CommitObserver commits = CommitObserver.files(log, DeltaPathContender::isCommitFile)) {
      long started = System.currentTimeMillis();
      // Building the sink opens the table on the client, as a job submission does.
      StreamExecutionEnvironment env = job(table, JOB_ROWS);
      long submitted = System.currentTimeMillis();
      JobID job = flink.submit(env);
      flink.awaitSuccess(job, "job on the large table");
      List<Long> seen = commits.times();
      List<AbstractCheckpointStats> checkpoints = flink.completedCheckpoints(job);
      long firstCheckpoint =
          checkpoints.isEmpty() ? -1 : checkpoints.get(0).getLatestAckTimestamp();
      figures
          .put("job_build_ms", submitted - started)
          .put("job_first_checkpoint_ms", firstCheckpoint - started)
          .put("job_first_commit_ms", seen.isEmpty() ? -1 : seen.get(0) - started)
          .put("job_commits", seen.size())
          .put(
              "job_checkpoint_state_bytes_max",
              checkpoints.stream().mapToLong(AbstractCheckpointStats::getStateSize).max().orElse(0))
          .put("job_versions_before", before);
    }
  }

  /**
   * Cancels jobs at several moments after they are scheduled, while their sinks open the table, and
   * reports the longest time from the cancel call to the job's end.
   */
  private static void cancelWhileStarting(EmbeddedFlink flink, String table, Figures figures)
      throws Exception {
    double longest = 0;
    for (long delay : new long[] {0, 200, 500, 1_000}) {
      JobID job = flink.submit(job(table, 1L << 40));
      while (flink.cluster().getJobStatus(job).get() != JobStatus.RUNNING) {
        Thread.sleep(5);
      }
      Thread.sleep(delay);
      long cancelled = System.nanoTime();
      flink.cluster().cancelJob(job).get();
      while (!flink.cluster().getJobStatus(job).get().isGloballyTerminalState()) {
        Thread.sleep(5);
      }
      double millis = (System.nanoTime() - cancelled) / 1e6;
      figures.put("cancel_" + delay + "ms_after_start_ms", millis);
      longest = Math.max(longest, millis);
    }
    figures.put("cancel_while_starting_max_ms", longest);
  }

  private static StreamExecutionEnvironment job(String table, long rows) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(1_000);
    env.fromSource(
            new DataGeneratorSource<>(
                BenchmarkRows.generator(), rows, InternalTypeInfo.of(BenchmarkRows.TYPE)),
            WatermarkStrategy.noWatermarks(),
            "rows")
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(BenchmarkRows.TYPE)
                .partitionColumns(BenchmarkRows.PARTITION_COLUMN)
                .build());
    return env;
  }
}
