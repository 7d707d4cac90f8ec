/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * A long streaming run into one Unity Catalog managed table (embedded catalog, local storage) at a
 * steady rate with a checkpoint, and so a commit, every second. The live heap is sampled after a
 * full collection at fixed intervals; after warm-up (the first fifth of the run) it must stay flat.
 *
 * <p>The {@code upsert} flavour streams the upsert benchmark's changelog ({@link UpsertChangelog},
 * over {@link #UPSERT_KEYS} keys, so that every key has been touched within the warm-up) into a
 * path table with a primary key instead, and reads the table back at the end: it must hold exactly
 * the live keys. A path table, because reading a catalog-managed table back with deletion vectors
 * applied would need the catalog's client in the reader; the writer's side, which the soak watches,
 * is the same.
 *
 * <p>Arguments: {@code seconds rows-per-second [append|upsert] work-dir result-file}.
 */
public final class SoakRun {

  private static final String TABLE = "main.default.soak";

  /** Keys of the upsert flavour's changelog. */
  static final long UPSERT_KEYS = 100_000;

  private SoakRun() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.parseInt(args[0]);
    int rate = Integer.parseInt(args[1]);
    boolean upsert = args.length > 4 && args[2].equals("upsert");
    Path dir = Path.of(args[args.length - 2]);
    long rows = (long) seconds * rate;
    Path storage = dir.resolve("soak-storage");
    Figures figures = new Figures(upsert ? "soak upsert" : "soak");
    List<long[]> samples = new ArrayList<>();
    long sampleMillis = Math.max(1_000, seconds * 1_000L / 60);

    try (UnityCatalogServer catalog =
            UnityCatalogServer.builder().storageRoot(storage).build().start();
        EmbeddedFlink flink =
            new EmbeddedFlink(
                2,
                dir.resolve("checkpoints"),
                WebOptions.CHECKPOINTS_HISTORY_SIZE.defaultValue())) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(2);
      env.enableCheckpointing(1_000);
      String upsertTable = dir.resolve("soak-upsert-table").toUri().toString();
      UpsertChangelog changelog = new UpsertChangelog(UPSERT_KEYS);
      if (upsert) {
        changelog.source(env, rows, rate).sinkTo(DeltaUpsertContender.sink(upsertTable));
      } else {
        env.fromSource(
                new DataGeneratorSource<>(
                    BenchmarkRows.generator(),
                    rows,
                    RateLimiterStrategy.perSecond(rate),
                    InternalTypeInfo.of(BenchmarkRows.TYPE)),
                WatermarkStrategy.noWatermarks(),
                "rows")
            .sinkTo(
                DeltaSink.builder()
                    .unityCatalog(new UnityCatalogConnection(catalog.uri(), Secret.of("soak")))
                    .tableName(TABLE)
                    .rowType(BenchmarkRows.TYPE)
                    .partitionColumns(BenchmarkRows.PARTITION_COLUMN)
                    .build());
      }

      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
      long start = System.currentTimeMillis();
      sampler.scheduleAtFixedRate(
          () -> {
            System.gc();
            synchronized (samples) {
              samples.add(
                  new long[] {
                    System.currentTimeMillis() - start, memory.getHeapMemoryUsage().getUsed()
                  });
            }
          },
          sampleMillis,
          sampleMillis,
          TimeUnit.MILLISECONDS);
      JobID job = flink.submit(env);
      flink.awaitSuccess(job, "soak");
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);

      HeapTrend trend = HeapTrend.of(samples, 0.2);
      figures.put("seconds", seconds).put("rows", rows);
      if (upsert) {
        UpsertChangelog.Contents expected = changelog.expected(rows);
        UpsertChangelog.Contents read = DeltaUpsertContender.read(upsertTable);
        figures
            .put("keys", UPSERT_KEYS)
            .put("live_keys_expected", expected.rows())
            .put("rows_read", read.rows())
            .put(
                "commits",
                DeltaPathContender.checkpointsOf(Path.of(java.net.URI.create(upsertTable))).size())
            .put("files", DeltaUpsertContender.filesOf(upsertTable).data());
        if (!read.equals(expected)) {
          throw new IllegalStateException(
              "The upsert table does not hold the live keys: read "
                  + read
                  + ", expected "
                  + expected);
        }
      } else {
        ParquetOutput output = ParquetOutput.read(storage);
        figures
            .put("rows_landed", output.rows())
            .put("catalog_version", catalog.latestVersion(TABLE))
            .put("files", output.files());
        if (output.rows() != rows) {
          throw new IllegalStateException("Rows lost or duplicated:\n" + figures);
        }
      }
      figures
          .put("heap_samples", samples.size())
          .put("heap_after_warmup_first_third_mb", trend.firstThirdMb())
          .put("heap_last_third_mb", trend.lastThirdMb())
          .put("heap_max_after_warmup_mb", trend.maxMb())
          .put("heap_slope_mb_per_hour", trend.slopeMbPerHour())
          .put("heap_mb_at_each_tenth", HeapTrend.atEachTenth(samples));
    }
    figures.write(Path.of(args[args.length - 1]));
    System.exit(0);
  }
}
