/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One bounded read in a JVM of its own, so that heap, CPU time and JIT state belong to one reader:
 * the reader's source of the tables {@link ReadTables} wrote into a sink that only counts rows, at
 * parallelism 2 on an embedded Flink cluster. The job's wall time runs from submission to its end;
 * its CPU time is this JVM's over the same span. The run fails unless the sink counted exactly the
 * rows written.
 *
 * <p>Arguments: {@code reader scenario rows object-reuse repetition work-dir result-file}; the
 * tables are those of {@code scenario} and {@code rows} in the work directory's parent.
 */
public final class ReadRun {

  static final int PARALLELISM = 2;

  private ReadRun() {}

  public static void main(String[] args) throws Exception {
    Path result = Path.of(args[6]);
    Path dir = Path.of(args[5]);
    Scenario scenario = Scenario.of(args[1]);
    long rows = Long.parseLong(args[2]);
    read(
            args[0],
            scenario,
            rows,
            Boolean.parseBoolean(args[3]),
            Integer.parseInt(args[4]),
            ReadTables.dir(dir.getParent(), scenario, rows),
            dir)
        .write(result);
    System.exit(0);
  }

  static Figures read(
      String name,
      Scenario scenario,
      long rows,
      boolean objectReuse,
      int repetition,
      Path tables,
      Path dir)
      throws Exception {
    ReadContender reader = ReadContender.named(name);
    try (EmbeddedFlink flink = new EmbeddedFlink(PARALLELISM, dir.resolve("checkpoints"))) {
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(PARALLELISM);
      if (objectReuse) {
        env.getConfig().enableObjectReuse();
      }
      env.fromSource(
              reader.source(tables, scenario),
              WatermarkStrategy.noWatermarks(),
              name,
              reader.producedType())
          .sinkTo(new ValueReadingSink())
          .name("count");

      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      System.gc();
      long cpuStart = os.getProcessCpuTime();
      long start = System.nanoTime();
      JobID job = flink.submit(env);
      flink.awaitSuccess(job, name + " on " + scenario.id());
      double seconds = (System.nanoTime() - start) / 1e9;
      long cpuNanos = os.getProcessCpuTime() - cpuStart;
      long counted = ValueReadingSink.rows();
      if (counted != rows) {
        throw new IllegalStateException(
            String.format(
                "%s on %s counted %,d rows where the tables hold %,d",
                name, scenario.id(), counted, rows));
      }
      return new Figures("read " + name + " " + scenario.id() + " " + repetition)
          .put("reader", name)
          .put("scenario", scenario.id())
          .put("repetition", repetition)
          .put("rows", counted)
          .put("parallelism", PARALLELISM)
          .put("object_reuse", objectReuse)
          .put("seconds", seconds)
          .put("rows_per_second", rows / seconds)
          .put("cpu_seconds", cpuNanos / 1e9)
          .put("cpu_ns_per_row", (double) cpuNanos / rows);
    }
  }
}
