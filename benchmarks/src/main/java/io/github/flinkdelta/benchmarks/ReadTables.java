/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The tables the read section reads, written in a JVM of their own by bounded jobs at parallelism
 * 2: the same rows of {@link BenchmarkRows} into a Delta table by this sink, without column mapping
 * so that its Parquet files carry the columns' own names and Flink's Parquet source can read them
 * as they are, and into an Iceberg table by Iceberg's Flink sink; both with the comparison's
 * Parquet settings, each committing once at the end of the input. The write is not measured.
 *
 * <p>Arguments: {@code scenario rows work-dir result-file}; the tables go into the work directory,
 * where {@link #dir} finds them.
 */
public final class ReadTables {

  static final int PARALLELISM = 2;

  private ReadTables() {}

  public static void main(String[] args) throws Exception {
    Path result = Path.of(args[3]);
    write(Scenario.of(args[0]), Long.parseLong(args[1]), Path.of(args[2])).write(result);
    System.exit(0);
  }

  /**
   * The directory that holds the tables of {@code scenario} and {@code rows} under {@code work}.
   */
  static Path dir(Path work, Scenario scenario, long rows) {
    return ChildRuns.logOf(ReadTables.class, work, scenario.id(), Long.toString(rows)).getParent();
  }

  /** The Delta table in {@code dir}. */
  static Path deltaTable(Path dir) {
    return dir.resolve("delta-table");
  }

  static Figures write(Scenario scenario, long rows, Path dir) throws Exception {
    RunSettings settings = RunSettings.defaults(rows);
    DeltaSink delta =
        DeltaPathContender.configure(
                DeltaSink.builder().tablePath(deltaTable(dir).toUri().toString()),
                scenario,
                settings)
            .tableProperty("delta.columnMapping.mode", "none")
            .build();
    IcebergContender iceberg = new IcebergContender();
    iceberg.prepare(dir, scenario, settings);
    long start = System.nanoTime();
    try (EmbeddedFlink flink = new EmbeddedFlink(PARALLELISM, dir.resolve("checkpoints"))) {
      // One table after the other, so that the two sinks' buffers never share the heap.
      run(flink, rows, generated -> generated.sinkTo(delta).name("delta").uid("delta"), "delta");
      run(flink, rows, iceberg::attach, "iceberg");
    }
    return new Figures("read tables " + scenario.id())
        .put("scenario", scenario.id())
        .put("rows", rows)
        .put("write_seconds", (System.nanoTime() - start) / 1e9)
        .put("delta_files", DeltaPathContender.addedFiles(deltaTable(dir)).size())
        .put("iceberg_files", iceberg.committedFiles().size());
  }

  /** Runs one bounded job of the generated rows into the sink {@code attach} adds. */
  private static void run(
      EmbeddedFlink flink, long rows, Consumer<DataStream<RowData>> attach, String table)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(PARALLELISM);
    attach.accept(
        env.fromSource(
            new DataGeneratorSource<>(
                BenchmarkRows.generator(), rows, InternalTypeInfo.of(BenchmarkRows.TYPE)),
            WatermarkStrategy.noWatermarks(),
            "rows"));
    JobID job = flink.submit(env);
    flink.awaitSuccess(job, "writing the " + table + " table");
  }
}
