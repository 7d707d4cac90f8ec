/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * Many partitions in one checkpoint on one writer subtask: {@code partitions} distinct values of
 * the partition column, each seen {@code passes} times in round-robin order (so every partition is
 * open at once), one checkpoint for the whole input, the sink's default buffer budget. Run in a JVM
 * with the heap under test; reports whether every row landed, the files per partition and the live
 * heap.
 *
 * <p>Arguments: {@code partitions passes work-dir result-file}.
 */
public final class ManyPartitionsRun {

  private ManyPartitionsRun() {}

  public static void main(String[] args) throws Exception {
    int partitions = Integer.parseInt(args[0]);
    int passes = Integer.parseInt(args[1]);
    MemorySize budget = MemorySize.parse(args[2]);
    Path dir = Path.of(args[3]);
    long rows = (long) partitions * passes;
    Path table = dir.resolve("many-partitions");

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(3_600_000);
    // One checkpoint, the final one: Flink 2.3 would otherwise take the first at once.
    env.getCheckpointConfig().setMinPauseBetweenCheckpoints(3_600_000);
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            spread(partitions), rows, InternalTypeInfo.of(BenchmarkRows.TYPE));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "rows")
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table.toUri().toString())
                .rowType(BenchmarkRows.TYPE)
                .partitionColumns(BenchmarkRows.PARTITION_COLUMN)
                .option(DeltaSinkOptions.BUFFER_BUDGET, budget)
                .build());

    Figures figures = new Figures("many-partitions");
    try (EmbeddedFlink flink = new EmbeddedFlink(1, dir.resolve("checkpoints"));
        HeapMonitor heap = new HeapMonitor()) {
      long start = System.nanoTime();
      JobID job = flink.submit(env);
      flink.awaitSuccess(job, "many partitions");
      double seconds = (System.nanoTime() - start) / 1e9;
      ParquetOutput output = ParquetOutput.read(table);
      Map<Path, Integer> filesPerPartition = filesPerPartition(table);
      figures
          .put("partitions", partitions)
          .put("rows", rows)
          .put("rows_landed", output.rows())
          .put("seconds", seconds)
          .put("checkpoints", flink.completedCheckpoints(job).size())
          .put("files", output.files())
          .put("partitions_written", filesPerPartition.size())
          .put(
              "max_files_per_partition",
              filesPerPartition.values().stream().mapToInt(Integer::intValue).max().orElse(0))
          .put("buffer_budget_bytes", budget.getBytes())
          .put("peak_heap_after_gc_bytes", heap.peakAfterGc())
          .put("max_heap_bytes", Runtime.getRuntime().maxMemory());
      if (output.rows() != rows || filesPerPartition.size() != partitions) {
        throw new IllegalStateException("Rows or partitions lost:\n" + figures);
      }
    }
    figures.write(Path.of(args[4]));
    System.exit(0);
  }

  /** Benchmark rows whose partition value cycles through {@code partitions} values. */
  private static GeneratorFunction<Long, RowData> spread(int partitions) {
    return i -> BenchmarkRows.row(i, "p" + (i % partitions));
  }

  private static Map<Path, Integer> filesPerPartition(Path table) throws IOException {
    Map<Path, Integer> counts = new TreeMap<>();
    try (Stream<Path> files = Files.walk(table)) {
      files
          .filter(file -> file.getFileName().toString().endsWith(".parquet"))
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .filter(file -> !file.toString().contains("_delta_log"))
          .forEach(file -> counts.merge(file.getParent(), 1, Integer::sum));
    }
    return counts;
  }
}
