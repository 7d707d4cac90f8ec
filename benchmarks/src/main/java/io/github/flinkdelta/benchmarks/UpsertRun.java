/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One upsert contender in a JVM of its own: the benchmark's changelog ({@link UpsertChangelog}, one
 * source reader) into the contender's sink at parallelism 2 with a checkpoint a second on an
 * embedded Flink cluster; then the table's current rows read back in this JVM by the contender's
 * own reader, which must find exactly the live keys the changelog leaves (a run of this sink fails
 * otherwise; a peer's shortfall is reported), and its files counted. For this sink, also the size
 * of the key index in the checkpoints: the keyed state of its upsert writer.
 *
 * <p>Arguments: {@code contender changes keys state-backend work-dir result-file}, the state
 * backend {@code hashmap} (Flink's default) or {@code rocksdb} (full, not incremental,
 * checkpoints).
 */
public final class UpsertRun {

  static final int PARALLELISM = 2;
  static final long CHECKPOINT_INTERVAL_MS = 1_000;

  private UpsertRun() {}

  public static void main(String[] args) throws Exception {
    String name = args[0];
    long changes = Long.parseLong(args[1]);
    long keys = Long.parseLong(args[2]);
    String backend = args[3];
    long readLimitSeconds = Long.parseLong(args[4]);
    Path dir = Path.of(args[5]);
    Path result = Path.of(args[6]);
    run(name, changes, keys, backend, readLimitSeconds, dir, result).write(result);
    System.exit(0);
  }

  static Figures run(
      String name,
      long changes,
      long keys,
      String backend,
      long readLimitSeconds,
      Path dir,
      Path result)
      throws Exception {
    UpsertChangelog changelog = new UpsertChangelog(keys);
    UpsertChangelog.Contents expected = changelog.expected(changes);
    UpsertContender contender = UpsertContender.named(name);
    Figures figures =
        new Figures("upsert " + name)
            .put("contender", name)
            .put("changes", changes)
            .put("keys", keys)
            .put("live_keys_expected", expected.rows())
            .put("parallelism", PARALLELISM)
            .put("checkpoint_interval_ms", CHECKPOINT_INTERVAL_MS)
            .put("state_backend", backend);
    Configuration conf = new Configuration();
    conf.set(StateBackendOptions.STATE_BACKEND, backend.replace("-incremental", ""));
    conf.set(
        org.apache.flink.configuration.CheckpointingOptions.INCREMENTAL_CHECKPOINTS,
        backend.endsWith("-incremental"));
    try (EmbeddedFlink flink =
        new EmbeddedFlink(
            PARALLELISM,
            dir.resolve("checkpoints"),
            // Every checkpoint of the run is counted, and the index's last one found.
            100_000,
            conf)) {
      contender.prepare(dir, PARALLELISM);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(PARALLELISM);
      env.enableCheckpointing(CHECKPOINT_INTERVAL_MS);
      contender.attach(changelog.source(env, changes, 0));

      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      System.gc();
      try (HeapMonitor heap = new HeapMonitor()) {
        long cpuStart = os.getProcessCpuTime();
        long start = System.nanoTime();
        JobID job = flink.submit(env);
        flink.awaitSuccess(job, name);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
        // The source is not chained to the writers (rows are keyed on the way), so a change
        // generated is one the writers take only a few network buffers later.
        ThroughputAfterWarmUp warm =
            ThroughputAfterWarmUp.of(
                GenerationProgress.marks(),
                start,
                ContenderRun.WARM_UP_MILLIS * 1_000_000,
                GenerationProgress.EVERY);
        List<AbstractCheckpointStats> checkpoints = flink.completedCheckpoints(job);
        figures
            .put("seconds", seconds)
            .put("changes_per_second", changes / seconds)
            .put("cpu_seconds", cpuSeconds)
            .put("cpu_us_per_change", cpuSeconds * 1e6 / changes)
            .put("changes_after_warm_up", warm.rows())
            // null when the job ended before its warm-up did
            .put("changes_per_second_after_warm_up", warm.rows() == 0 ? null : warm.rowsPerSecond())
            .put(
                "cpu_us_per_change_after_warm_up",
                warm.rows() == 0 ? null : warm.cpuSeconds() * 1e6 / warm.rows())
            .put("checkpoints", checkpoints.size())
            .put(
                "checkpoint_state_bytes_max",
                checkpoints.stream()
                    .mapToLong(AbstractCheckpointStats::getStateSize)
                    .max()
                    .orElse(0))
            .put("peak_heap_after_gc_mb", heap.peakAfterGc() / 1e6);
        if (name.equals(DeltaUpsertContender.NAME)) {
          indexState(flink, job, checkpoints, expected.rows(), figures);
        }
      }
    }

    // The files first: planning is quick, and the figure survives a read that is not.
    UpsertContender.TableFiles files = contender.files();
    figures
        .put("data_files", files.data())
        .put("data_files_with_deletes", files.withDeletes())
        .put("delete_files", files.deletes())
        .write(result);

    // The read, after the cluster has gone: the JVM holds nothing of the job any more.
    Thread limit =
        new Thread(
            () -> {
              try {
                Thread.sleep(readLimitSeconds * 1_000);
                synchronized (figures) {
                  figures.put("read_not_finished_within_s", readLimitSeconds).write(result);
                }
                System.err.println("The read did not finish within " + readLimitSeconds + " s");
                Runtime.getRuntime().halt(0);
              } catch (InterruptedException e) {
                // the read finished
              } catch (java.io.IOException e) {
                e.printStackTrace();
                Runtime.getRuntime().halt(1);
              }
            },
            "read-limit");
    limit.setDaemon(true);
    limit.start();
    System.gc();
    long started = System.nanoTime();
    UpsertChangelog.Contents read = contender.read();
    double readMillis = (System.nanoTime() - started) / 1e6;
    synchronized (figures) {
      figures.put("read_ms", readMillis);
    }
    started = System.nanoTime();
    contender.read();
    limit.interrupt();
    synchronized (figures) {
      figures
          .put("read_again_ms", (System.nanoTime() - started) / 1e6)
          .put("rows_read", read.rows())
          .put("exact", read.equals(expected));
    }
    if (!read.equals(expected)) {
      String what =
          String.format(
              "%s read %,d rows (version sum %d) where the changelog leaves %,d live keys"
                  + " (version sum %d)",
              name, read.rows(), read.versionSum(), expected.rows(), expected.versionSum());
      if (name.equals(DeltaUpsertContender.NAME)) {
        throw new IllegalStateException(what);
      }
      System.err.println("NOT EXACT: " + what);
    }
    return figures;
  }

  /**
   * The key index's size in the checkpoints: the state of the sink's upsert writer (its keyed
   * state, and a few bytes of operator state) in the last checkpoint that holds it (the whole
   * state, also of an incremental checkpoint, which writes less). A writer that has finished its
   * input reports no state in the checkpoints after, so the last ones are passed over. The index
   * then holds about the live keys the changelog leaves: every key has been touched many times by
   * then, and the share of live keys stays put.
   */
  private static void indexState(
      EmbeddedFlink flink,
      JobID job,
      List<AbstractCheckpointStats> checkpoints,
      long liveKeys,
      Figures figures)
      throws Exception {
    List<JobVertexID> writers = flink.vertices(job, DeltaUpsertContender.INDEX_OPERATOR);
    if (writers.size() != 1) {
      throw new IllegalStateException(
          "Expected one vertex named '"
              + DeltaUpsertContender.INDEX_OPERATOR
              + "', found "
              + writers.size());
    }
    long bytes = 0;
    long written = 0;
    long checkpoint = -1;
    for (AbstractCheckpointStats stats : checkpoints) {
      TaskStateStats writer = stats.getTaskStateStats(writers.get(0));
      if (writer != null && writer.getStateSize() > 0) {
        bytes = writer.getStateSize();
        written = writer.getCheckpointedSize();
        checkpoint = stats.getCheckpointId();
      }
    }
    figures
        .put("index_state_bytes", bytes)
        .put("index_state_bytes_written_by_that_checkpoint", written)
        .put("index_state_checkpoint", checkpoint)
        .put("index_state_bytes_per_live_key", (double) bytes / liveKeys);
  }
}
