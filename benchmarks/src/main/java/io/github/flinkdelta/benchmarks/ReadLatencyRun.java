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
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * How soon a continuous {@link DeltaSource} emits what a commit adds, in a JVM of its own: the
 * source polls an unpartitioned table every {@code poll-ms} in a job at parallelism 2, while this
 * JVM commits {@code versions} versions of {@code rows-per-version} rows of {@link BenchmarkRows}
 * through the connector's own table code, one every {@code interval-ms} on average. Each gap is
 * drawn between half and one and a half of that (from a fixed seed), so that the commits fall at
 * every point of the poll cycle instead of locking on to a few of them. A version's rows are told
 * apart by their event ids; a map function in the job notes when the first and the last row of each
 * version passed it. A version's latency runs from the moment its commit returned to the first (and
 * to the last) of its rows emitted, on the same clock. One version committed and read before the
 * measured ones warms the job up.
 *
 * <p>Arguments: {@code versions rows-per-version interval-ms poll-ms work-dir result-file}.
 */
public final class ReadLatencyRun {

  static final int PARALLELISM = 2;

  /** How long after the last commit its rows may take before the run fails. */
  private static final Duration GRACE = Duration.ofSeconds(30);

  /** The seed of the gaps between commits, the same in every run. */
  private static final long SEED = 20_260_501L;

  /** When the rows of each version passed the job, by version. */
  private static final Map<Long, Emission> EMITTED = new ConcurrentHashMap<>();

  private ReadLatencyRun() {}

  public static void main(String[] args) throws Exception {
    Path result = Path.of(args[5]);
    measure(
            Integer.parseInt(args[0]),
            Integer.parseInt(args[1]),
            Long.parseLong(args[2]),
            Duration.ofMillis(Long.parseLong(args[3])),
            Path.of(args[4]))
        .write(result);
    System.exit(0);
  }

  /**
   * The rows of one version seen so far.
   *
   * @param first when the first of them passed, epoch milliseconds
   * @param last when the latest of them passed
   */
  private record Emission(long first, long last, long rows) {
    Emission and(long at) {
      return new Emission(first, Math.max(last, at), rows + 1);
    }
  }

  /** Notes the moment each row passes, under the version its event id belongs to. */
  private static final class EmissionClock implements MapFunction<RowData, RowData> {
    private static final long serialVersionUID = 1L;

    private final long rowsPerVersion;

    EmissionClock(long rowsPerVersion) {
      this.rowsPerVersion = rowsPerVersion;
    }

    @Override
    public RowData map(RowData row) {
      long at = System.currentTimeMillis();
      EMITTED.compute(
          row.getLong(0) / rowsPerVersion,
          (version, seen) -> seen == null ? new Emission(at, at, 1) : seen.and(at));
      return row;
    }
  }

  static Figures measure(
      int versions, int rowsPerVersion, long intervalMillis, Duration poll, Path dir)
      throws Exception {
    String uri = dir.resolve("delta-table").toUri().toString();
    org.apache.hadoop.conf.Configuration conf = HadoopConfigurations.of(Map.of());
    List<Long> committedAt = new ArrayList<>();
    try (DeltaTable table =
            DeltaTable.open(
                TableRequest.of(new PathTableLocator(uri), conf)
                    .creatingIfMissing(
                        new TableDefinition(
                            DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE), List.of(), Map.of())));
        EmbeddedFlink flink = new EmbeddedFlink(PARALLELISM, dir.resolve("checkpoints"))) {
      DeltaSource source =
          DeltaSource.builder()
              .tablePath(uri)
              .continuous()
              .option(DeltaSourceOptions.POLL_INTERVAL, poll)
              .build();
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(PARALLELISM);
      env.fromSource(source, WatermarkStrategy.noWatermarks(), "delta-source")
          .map(new EmissionClock(rowsPerVersion))
          .returns(source.getProducedType())
          .sinkTo(new ValueReadingSink())
          .name("count");
      JobID job = flink.submit(env);

      commit(table, 0, rowsPerVersion, conf);
      awaitRows(0, rowsPerVersion, System.currentTimeMillis() + GRACE.toMillis());
      java.util.Random gaps = new java.util.Random(SEED);
      long next = System.currentTimeMillis();
      for (int version = 1; version <= versions; version++) {
        next += intervalMillis / 2 + gaps.nextLong(intervalMillis + 1);
        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
        commit(table, version, rowsPerVersion, conf);
        committedAt.add(System.currentTimeMillis());
      }
      long deadline = System.currentTimeMillis() + GRACE.toMillis();
      for (int version = 1; version <= versions; version++) {
        awaitRows(version, rowsPerVersion, deadline);
      }
      flink.cluster().cancelJob(job).get();
    }

    List<Long> toFirst = new ArrayList<>();
    List<Long> toLast = new ArrayList<>();
    for (int version = 1; version <= versions; version++) {
      Emission emission = EMITTED.get((long) version);
      toFirst.add(emission.first() - committedAt.get(version - 1));
      toLast.add(emission.last() - committedAt.get(version - 1));
    }
    toFirst.sort(null);
    toLast.sort(null);
    return new Figures("read latency " + Scenario.UNPARTITIONED.id())
        .put("reader", DeltaSourceContender.NAME)
        .put("scenario", Scenario.UNPARTITIONED.id())
        .put("versions", versions)
        .put("rows_per_version", rowsPerVersion)
        .put("commit_interval_mean_ms", intervalMillis)
        .put("poll_interval_ms", poll.toMillis())
        .put("parallelism", PARALLELISM)
        .put("first_row_latency_p50_ms", CommitLatencies.percentile(toFirst, 50))
        .put("first_row_latency_p99_ms", CommitLatencies.percentile(toFirst, 99))
        .put("first_row_latency_max_ms", CommitLatencies.percentile(toFirst, 100))
        .put("last_row_latency_p50_ms", CommitLatencies.percentile(toLast, 50))
        .put("last_row_latency_p99_ms", CommitLatencies.percentile(toLast, 99))
        .put("last_row_latency_max_ms", CommitLatencies.percentile(toLast, 100));
  }

  /** Commits version {@code index}'s rows, event ids {@code index × rows} on, as one file. */
  private static void commit(
      DeltaTable table, int index, int rows, org.apache.hadoop.conf.Configuration conf)
      throws IOException {
    String appId = "read-latency";
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(BenchmarkRows.TYPE, List.of()),
            conf,
            table.path(),
            FileWriteOptions.from(new Configuration()),
            appId + "-" + index)) {
      for (long id = (long) index * rows; id < (long) (index + 1) * rows; id++) {
        writer.write(BenchmarkRows.row(id));
      }
      table.commit(appId, index + 1, writer.flush());
    }
  }

  /** Waits until every row of {@code version} has passed the job; fails at {@code deadline}. */
  private static void awaitRows(long version, int rows, long deadline) throws InterruptedException {
    while (true) {
      Emission seen = EMITTED.get(version);
      if (seen != null && seen.rows() >= rows) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            String.format(
                "version %d's rows did not all arrive: %d of %d",
                version, seen == null ? 0 : seen.rows(), rows));
      }
      Thread.sleep(5);
    }
  }
}
