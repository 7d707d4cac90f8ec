/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * One run of the compaction section, in a JVM of its own: {@code commits × rows-per-commit} rows of
 * {@link BenchmarkRows} into a path table at parallelism 2, then the table read back twice in this
 * JVM, after the cluster has gone, and compared with the rows generated (the run fails unless they
 * are exactly those). Three kinds of run on the same rows:
 *
 * <ul>
 *   <li>{@value #STREAM}: a checkpoint every {@code checkpoint-ms}, the source releasing {@code
 *       rows-per-commit} rows after each, so that the stream makes about {@code commits} commits of
 *       small files, as an hour of one checkpoint a second would;
 *   <li>{@value #COMPACTING}: the same stream with the sink's in-job compaction on, started every
 *       {@code trigger-commits} commits, with the other compaction options at their defaults;
 *   <li>{@value #LARGE_FILES}: the rows as fast as they come without checkpoints, so that the job
 *       commits once at the end of its input, in files rolled at the sink's target file size.
 * </ul>
 *
 * <p>Compactions are read from the table's log: each version that only removes and adds files with
 * {@code dataChange = false}. A compaction's time runs from the moment the version it planned on
 * (its transaction version) became visible to the moment its own version did: planning, rewriting
 * and committing, retries included. (Not by commitInfo timestamps: Kernel stamps a commit at its
 * first attempt, so they leave the retries out.)
 *
 * <p>Arguments: {@code kind scenario commits rows-per-commit trigger-commits checkpoint-ms work-dir
 * result-file}.
 */
public final class CompactionRun {

  static final String STREAM = "stream";
  static final String COMPACTING = "compacting-stream";
  static final String LARGE_FILES = "large-files";
  static final List<String> KINDS = List.of(STREAM, COMPACTING, LARGE_FILES);

  static final int PARALLELISM = 2;

  private CompactionRun() {}

  public static void main(String[] args) throws Exception {
    Path result = Path.of(args[7]);
    run(
            args[0],
            Scenario.of(args[1]),
            Long.parseLong(args[2]),
            Integer.parseInt(args[3]),
            Integer.parseInt(args[4]),
            Long.parseLong(args[5]),
            Path.of(args[6]),
            result)
        .write(result);
    System.exit(0);
  }

  static Figures run(
      String kind,
      Scenario scenario,
      long commits,
      int rowsPerCommit,
      int triggerCommits,
      long checkpointMillis,
      Path dir,
      Path result)
      throws Exception {
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException("Unknown run '" + kind + "'; known: " + KINDS);
    }
    boolean streaming = !kind.equals(LARGE_FILES);
    long rows = commits * rowsPerCommit;
    Figures figures =
        new Figures("compaction " + kind)
            .put("run", kind)
            .put("scenario", scenario.id())
            .put("rows", rows)
            .put("commits_requested", streaming ? commits : 1)
            .put("rows_per_commit", streaming ? rowsPerCommit : rows)
            .put("parallelism", PARALLELISM)
            .put("checkpoint_interval_ms", streaming ? checkpointMillis : null);
    if (kind.equals(COMPACTING)) {
      figures
          .put("compaction_trigger_commits", triggerCommits)
          .put(
              "compaction_target_file_size_mb",
              DeltaSinkOptions.COMPACTION_TARGET_FILE_SIZE.defaultValue().getMebiBytes())
          .put(
              "compaction_min_input_files",
              DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES.defaultValue())
          .put(
              "compaction_max_bytes_per_run_mb",
              DeltaSinkOptions.COMPACTION_MAX_BYTES_PER_RUN.defaultValue().getMebiBytes());
    }

    Streamed streamed =
        write(kind, scenario, rows, rowsPerCommit, triggerCommits, checkpointMillis, dir, figures);
    TableHistory history = streamed.history();
    List<TableHistory.Version> dataCommits = history.dataCommits();
    long streamedBytes = dataCommits.stream().mapToLong(TableHistory.Version::bytesAdded).sum();
    figures
        .put("table_version", history.latestVersion())
        .put("data_commits", dataCommits.size())
        .put(
            "files_committed_by_the_stream",
            dataCommits.stream().mapToInt(v -> v.adds().size()).sum())
        .put("bytes_committed_by_the_stream", streamedBytes)
        .put("files_never_added", history.filesNeverAdded(table(dir)));
    compactions(history, streamed.visibleAt(), streamedBytes, figures);
    // Kept before the reads, so that the figures survive a read that fails.
    figures.write(result);
    readBack(kind, table(dir), rows, figures, result);
    return figures;
  }

  /** The table's log once the job is done, and when each version became visible. */
  private record Streamed(TableHistory history, Map<Long, Long> visibleAt) {}

  private static Path table(Path dir) {
    return dir.resolve("delta-table");
  }

  /** Runs the job on an embedded cluster, its commits watched, and adds its commit latencies. */
  private static Streamed write(
      String kind,
      Scenario scenario,
      long rows,
      int rowsPerCommit,
      int triggerCommits,
      long checkpointMillis,
      Path dir,
      Figures figures)
      throws Exception {
    boolean streaming = !kind.equals(LARGE_FILES);
    Path table = table(dir);
    try (EmbeddedFlink flink = new EmbeddedFlink(PARALLELISM, dir.resolve("checkpoints"))) {
      // Building the sink creates the table, whose log the observer then watches.
      DeltaSink sink = sink(kind, table, scenario, rows, triggerCommits);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(PARALLELISM);
      if (streaming) {
        env.enableCheckpointing(checkpointMillis);
      }
      env.fromSource(
              new DataGeneratorSource<>(
                  BenchmarkRows.generator(),
                  rows,
                  streaming
                      ? RateLimiterStrategy.perCheckpoint(rowsPerCommit)
                      : RateLimiterStrategy.noOp(),
                  InternalTypeInfo.of(BenchmarkRows.TYPE)),
              WatermarkStrategy.noWatermarks(),
              "rows")
          .sinkTo(sink)
          .name("delta")
          .uid("delta");
      try (CommitObserver observer =
          CommitObserver.files(
              table.resolve("_delta_log"),
              DeltaPathContender::isCommitFile,
              DeltaPathContender::version)) {
        long start = System.nanoTime();
        long warmedUp = System.currentTimeMillis() + ContenderRun.WARM_UP_MILLIS;
        JobID job = flink.submit(env);
        flink.awaitSuccess(job, "the " + kind + " run");
        figures.put("job_seconds", (System.nanoTime() - start) / 1e9);
        Thread.sleep(100);
        TableHistory history = TableHistory.of(table);
        Map<Long, Long> visibleAt = new HashMap<>();
        for (CommitObserver.Visible commit : observer.visible()) {
          visibleAt.putIfAbsent(commit.version(), commit.atMillis());
        }
        commitLatencies(flink.completedCheckpoints(job), observer, history, warmedUp, figures);
        return new Streamed(history, visibleAt);
      }
    }
  }

  /**
   * Reads the table twice, the second time warm, and fails unless both reads found exactly the rows
   * generated.
   */
  private static void readBack(String kind, Path table, long rows, Figures figures, Path result)
      throws java.io.IOException {
    System.gc();
    FullScan.Result first = FullScan.read(table.toUri().toString(), rows);
    FullScan.Result second = FullScan.read(table.toUri().toString(), rows);
    RowDigest.Contents expected = RowDigest.ofGenerated(rows);
    boolean exact = first.contents().matches(expected) && second.contents().matches(expected);
    figures
        .put("data_files", first.files())
        .put("data_bytes", first.bytes())
        .put("mean_file_mb", first.files() == 0 ? null : first.bytes() / 1e6 / first.files())
        .put("read_version", first.version())
        .put("read_ms", first.millis())
        .put("read_again_ms", second.millis())
        .put("rows_read", first.contents().rows())
        .put("checksum_read", String.format("%016x", first.contents().checksum()))
        .put("checksum_expected", String.format("%016x", expected.checksum()))
        .put("exact", exact);
    if (!exact) {
      figures.write(result);
      throw new IllegalStateException(
          String.format(
              "The %s table does not hold exactly the rows written: read %s, then %s; expected %s",
              kind,
              first.contents().describe(),
              second.contents().describe(),
              expected.describe()));
    }
  }

  private static DeltaSink sink(
      String kind, Path table, Scenario scenario, long rows, int triggerCommits) {
    DeltaSinkBuilder builder =
        DeltaPathContender.configure(
            DeltaSink.builder().tablePath(table.toUri().toString()),
            scenario,
            RunSettings.defaults(rows));
    if (kind.equals(COMPACTING)) {
      builder
          .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
          .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, triggerCommits);
    }
    return builder.build();
  }

  /**
   * Each stream commit's latency, from the completion of the checkpoint it commits to its
   * visibility; compactions are not the stream's commits and are left out.
   */
  private static void commitLatencies(
      List<AbstractCheckpointStats> checkpoints,
      CommitObserver observer,
      TableHistory history,
      long warmedUp,
      Figures figures) {
    Map<Long, Long> completedAt = new HashMap<>();
    checkpoints.forEach(c -> completedAt.put(c.getCheckpointId(), c.getLatestAckTimestamp()));
    Map<Long, Long> checkpointOfVersion = history.checkpointOfDataCommit();
    List<Long> all =
        CommitLatencies.ofOwnCheckpoints(
            completedAt, observer.visible(), checkpointOfVersion, Long.MIN_VALUE);
    List<Long> warm =
        CommitLatencies.ofOwnCheckpoints(
            completedAt, observer.visible(), checkpointOfVersion, warmedUp);
    figures
        .put("checkpoints", checkpoints.size())
        .put("commits_measured", all.size())
        .put("commit_latency_p50_ms", figure(all, 50))
        .put("commit_latency_p99_ms", figure(all, 99))
        .put("commit_latency_max_ms", figure(all, 100))
        .put("commits_measured_after_warm_up", warm.size())
        .put("commit_latency_p50_after_warm_up_ms", figure(warm, 50))
        .put("commit_latency_p99_after_warm_up_ms", figure(warm, 99));
  }

  /** The compactions the log holds: what they rewrote, and how fast. */
  private static void compactions(
      TableHistory history, Map<Long, Long> visibleAt, long streamedBytes, Figures figures) {
    List<TableHistory.Version> rewrites = history.rewrites();
    long bytesRemoved = 0;
    long bytesAdded = 0;
    long filesRemoved = 0;
    long filesAdded = 0;
    long millis = 0;
    long longest = 0;
    long untimed = 0;
    long timedBytes = 0;
    for (TableHistory.Version rewrite : rewrites) {
      bytesRemoved += rewrite.bytesRemoved();
      bytesAdded += rewrite.bytesAdded();
      filesRemoved += rewrite.removes().size();
      filesAdded += rewrite.adds().size();
      Long planned = visibleAt.get(rewrite.txnVersion());
      Long committed = visibleAt.get(rewrite.number());
      if (planned == null || committed == null) {
        // The observer missed one of the two versions: the rewrite counts, its time cannot.
        untimed++;
        continue;
      }
      timedBytes += rewrite.bytesRemoved();
      millis += committed - planned;
      longest = Math.max(longest, committed - planned);
    }
    figures
        .put("compactions", rewrites.size())
        .put("compaction_files_rewritten", filesRemoved)
        .put("compaction_bytes_rewritten", bytesRemoved)
        .put("compaction_files_written", filesAdded)
        .put("compaction_bytes_written", bytesAdded)
        .put("compaction_seconds", millis / 1e3)
        .put("compaction_longest_seconds", longest / 1e3)
        .put("compactions_not_timed", untimed)
        .put("compaction_mb_per_s", millis == 0 ? null : timedBytes / 1e6 / (millis / 1e3))
        .put(
            "compaction_write_amplification",
            streamedBytes == 0 ? null : (double) bytesRemoved / streamedBytes);
  }

  /** A percentile, or null where there are no latencies (a job without checkpoints). */
  private static Double figure(List<Long> sorted, int percent) {
    return sorted.isEmpty() ? null : CommitLatencies.percentile(sorted, percent);
  }
}
