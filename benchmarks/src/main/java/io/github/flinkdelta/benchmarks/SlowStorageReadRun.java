/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.s3testkit.S3ProxyProcess;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.SubtaskStateStats;
import org.apache.flink.runtime.checkpoint.TaskStateStats;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * How long checkpoints of a continuous {@link DeltaSource} take while S3 answers slowly, in a JVM
 * of its own: s3proxy on loopback holds a table of {@code files} files of {@code rows-per-file}
 * rows, and once they are written every S3 request waits {@code delay-ms} ({@link SlowS3Requests}).
 * A job at parallelism 2 reads the table continuously and sends the rows, rebalanced, to a
 * discarding sink at parallelism 2, checkpointing every {@code checkpoint-ms}; it runs until every
 * row arrived. The figures are the checkpoints completed meanwhile: their end-to-end duration and
 * the sink's alignment (the wait from the first source's barrier to the last), the longest of its
 * subtasks per checkpoint. A reader that opens files on the task thread holds the barrier behind
 * each open; one that opens them on a fetcher thread does not.
 *
 * <p>Arguments: {@code delay-ms files rows-per-file checkpoint-ms repetition work-dir result-file}
 * (the repetition only names the run's directory).
 */
public final class SlowStorageReadRun {

  static final int PARALLELISM = 2;

  private static final String ACCESS_KEY = "benchmark";
  private static final String SECRET_KEY = "benchmark-secret";
  private static final Duration DEADLINE = Duration.ofMinutes(10);
  private static final AtomicLong ARRIVED = new AtomicLong();

  private SlowStorageReadRun() {}

  public static void main(String[] args) throws Exception {
    measure(
            Long.parseLong(args[0]),
            Integer.parseInt(args[1]),
            Integer.parseInt(args[2]),
            Long.parseLong(args[3]),
            Path.of(args[5]))
        .write(Path.of(args[6]));
    System.exit(0);
  }

  static Figures measure(
      long delayMillis, int files, int rowsPerFile, long checkpointMillis, Path dir)
      throws Exception {
    try (S3ProxyProcess s3 = S3ProxyProcess.start(dir.resolve("s3"), ACCESS_KEY, SECRET_KEY)) {
      s3.createBucket("lake");
      Map<String, String> storage = storageOptions(s3);
      String uri = "s3a://lake/slow-reads";
      write(uri, storage, files, rowsPerFile);
      long rows = (long) files * rowsPerFile;

      Configuration cluster = new Configuration();
      try (EmbeddedFlink flink =
          new EmbeddedFlink(PARALLELISM * 2, dir.resolve("checkpoints"), 100_000, cluster)) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(PARALLELISM);
        env.enableCheckpointing(checkpointMillis);
        DeltaSource source =
            DeltaSource.builder()
                .tablePath(uri)
                .hadoopOptions(storage)
                .continuous()
                .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofSeconds(1))
                .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "delta-source")
            .rebalance()
            .sinkTo(new CountingSink())
            .name("count");
        SlowS3Requests.delay(delayMillis);
        long start = System.nanoTime();
        JobID job = flink.submit(env);
        long deadline = System.currentTimeMillis() + DEADLINE.toMillis();
        while (ARRIVED.get() < rows) {
          if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException(
                "only " + ARRIVED.get() + " of " + rows + " rows arrived in " + DEADLINE);
          }
          Thread.sleep(20);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long delayed = SlowS3Requests.delayed();
        SlowS3Requests.delay(0);
        flink.cluster().cancelJob(job).get();
        return figures(flink, job, delayMillis, files, rowsPerFile, checkpointMillis)
            .put("seconds_to_last_row", seconds)
            .put("s3_requests_delayed", delayed);
      }
    }
  }

  private static Figures figures(
      EmbeddedFlink flink,
      JobID job,
      long delayMillis,
      int files,
      int rowsPerFile,
      long checkpointMillis)
      throws Exception {
    List<JobVertexID> sinks = flink.vertices(job, "count");
    List<Long> durations = new ArrayList<>();
    List<Long> alignments = new ArrayList<>();
    for (AbstractCheckpointStats checkpoint : flink.completedCheckpoints(job)) {
      durations.add(checkpoint.getEndToEndDuration());
      long alignment = 0;
      for (JobVertexID sink : sinks) {
        TaskStateStats task = checkpoint.getTaskStateStats(sink);
        for (SubtaskStateStats subtask : task.getSubtaskStats()) {
          if (subtask != null) {
            alignment = Math.max(alignment, subtask.getAlignmentDuration());
          }
        }
      }
      alignments.add(alignment);
    }
    durations.sort(null);
    alignments.sort(null);
    return new Figures("checkpoints of a continuous read while S3 answers slowly")
        .put("reader", DeltaSourceContender.NAME)
        .put("s3_delay_ms", delayMillis)
        .put("files", files)
        .put("rows_per_file", rowsPerFile)
        .put("parallelism", PARALLELISM)
        .put("checkpoint_interval_ms", checkpointMillis)
        .put("checkpoints_completed", durations.size())
        .put("checkpoint_p50_ms", CommitLatencies.percentile(durations, 50))
        .put("checkpoint_p90_ms", CommitLatencies.percentile(durations, 90))
        .put("checkpoint_max_ms", CommitLatencies.percentile(durations, 100))
        .put("alignment_p50_ms", CommitLatencies.percentile(alignments, 50))
        .put("alignment_p90_ms", CommitLatencies.percentile(alignments, 90))
        .put("alignment_max_ms", CommitLatencies.percentile(alignments, 100));
  }

  private static Map<String, String> storageOptions(S3ProxyProcess s3) {
    return Map.ofEntries(
        Map.entry("fs.s3a.endpoint", s3.endpoint().toString()),
        Map.entry("fs.s3a.endpoint.region", "us-east-1"),
        Map.entry("fs.s3a.path.style.access", "true"),
        Map.entry("fs.s3a.connection.ssl.enabled", "false"),
        Map.entry("fs.s3a.access.key", ACCESS_KEY),
        Map.entry("fs.s3a.secret.key", SECRET_KEY),
        Map.entry("fs.s3a.audit.execution.interceptors", SlowS3Requests.class.getName()));
  }

  /** Commits {@code files} versions of one file each, with distinct event ids. */
  private static void write(String uri, Map<String, String> storage, int files, int rowsPerFile)
      throws Exception {
    org.apache.hadoop.conf.Configuration conf = HadoopConfigurations.of(storage);
    try (DeltaTable table =
        DeltaTable.open(
            TableRequest.of(new PathTableLocator(uri), conf)
                .creatingIfMissing(
                    new TableDefinition(
                        DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE), List.of(), Map.of())))) {
      for (int file = 0; file < files; file++) {
        try (PartitionedDataWriter writer =
            new PartitionedDataWriter(
                table.layoutFor(BenchmarkRows.TYPE, List.of()),
                conf,
                table.path(),
                FileWriteOptions.from(new Configuration()),
                "slow-reads-" + file)) {
          for (long id = (long) file * rowsPerFile; id < (long) (file + 1) * rowsPerFile; id++) {
            writer.write(BenchmarkRows.row(id));
          }
          table.commit("slow-reads", file + 1, writer.flush());
        }
      }
    }
  }

  /** Counts the rows that arrive, in this JVM, and keeps none. */
  private static final class CountingSink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        @Override
        public void write(RowData row, Context context) {
          ARRIVED.incrementAndGet();
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
