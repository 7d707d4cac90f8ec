/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The key index a fresh upsert job builds on a table that already holds rows: a table of {@code
 * rows} rows of distinct keys (written by this sink without a key, deletion vectors on), then an
 * upsert job of a few changes over those keys at parallelism 2, without state, so that each writer
 * first reads the keys of the table's rows of its key groups. Reported: the time from submission to
 * the job's first checkpoint and to its first commit; each writer's own figure for the read is in
 * its log line "read the keys of N rows ... in X ms", which the benchmark picks from this run's
 * log. The table is then read back and must hold exactly the live keys.
 *
 * <p>Arguments: {@code rows changes work-dir result-file}.
 */
public final class IndexBuildRun {

  private IndexBuildRun() {}

  public static void main(String[] args) throws Exception {
    long rows = Long.parseLong(args[0]);
    long changes = Long.parseLong(args[1]);
    Path dir = Path.of(args[2]);
    String table = dir.resolve("indexed-table").toUri().toString();
    Figures figures = new Figures("upsert index build").put("table_rows", rows);

    try (EmbeddedFlink flink = new EmbeddedFlink(2, dir.resolve("checkpoints"))) {
      writeTable(flink, table, rows, figures);

      UpsertChangelog changelog = new UpsertChangelog(rows);
      Path log = Path.of(java.net.URI.create(table)).resolve("_delta_log");
      try (CommitObserver commits = CommitObserver.files(log, DeltaPathContender::isCommitFile)) {
        long started = System.currentTimeMillis();
        StreamExecutionEnvironment env = environment();
        changelog.source(env, changes, 0).sinkTo(DeltaUpsertContender.sink(table));
        long submitted = System.currentTimeMillis();
        JobID job = flink.submit(env);
        flink.awaitSuccess(job, "the upsert job");
        List<Long> seen = commits.times();
        List<AbstractCheckpointStats> checkpoints = flink.completedCheckpoints(job);
        figures
            .put("upsert_changes", changes)
            .put("job_build_ms", submitted - started)
            .put(
                "job_first_checkpoint_ms",
                checkpoints.isEmpty() ? -1 : checkpoints.get(0).getLatestAckTimestamp() - submitted)
            .put("job_first_commit_ms", seen.isEmpty() ? -1 : seen.get(0) - submitted)
            .put("job_commits", seen.size())
            .put(
                "job_checkpoint_state_bytes_max",
                checkpoints.stream()
                    .mapToLong(AbstractCheckpointStats::getStateSize)
                    .max()
                    .orElse(0));
      }
      UpsertChangelog.Contents expected = changelog.expected(rows, changes);
      UpsertChangelog.Contents read = DeltaUpsertContender.read(table);
      figures.put("live_keys_expected", expected.rows()).put("rows_read", read.rows());
      if (!read.equals(expected)) {
        throw new IllegalStateException(
            String.format(
                "The table holds %,d rows (version sum %d) where %,d live keys (version sum %d)"
                    + " were expected",
                read.rows(), read.versionSum(), expected.rows(), expected.versionSum()));
      }
    }
    figures.write(Path.of(args[3]));
    System.exit(0);
  }

  /**
   * Writes {@code rows} rows of {@link UpsertChangelog#initialRow} into a new table at {@code
   * table}, without a key and with deletion vectors on, and puts the time it took and its files
   * into {@code figures}.
   */
  static void writeTable(EmbeddedFlink flink, String table, long rows, Figures figures)
      throws Exception {
    long start = System.nanoTime();
    StreamExecutionEnvironment env = environment();
    env.fromSource(
            new DataGeneratorSource<>(
                UpsertChangelog::initialRow, rows, InternalTypeInfo.of(UpsertChangelog.TYPE)),
            WatermarkStrategy.noWatermarks(),
            "rows")
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(UpsertChangelog.TYPE)
                .tableProperty(UpsertTables.DELETION_VECTORS, "true")
                .option(DeltaSinkOptions.COMPRESSION, Compression.SNAPPY)
                .build());
    flink.awaitSuccess(flink.submit(env), "writing the table");
    figures
        .put("table_write_seconds", (System.nanoTime() - start) / 1e9)
        .put("table_files", DeltaUpsertContender.filesOf(table).data());
  }

  static StreamExecutionEnvironment environment() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(1_000);
    return env;
  }
}
