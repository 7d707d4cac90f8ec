/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * One contender on one scenario, in a JVM of its own so that heap, CPU time and JIT state belong to
 * it alone: generates the rows into the sink on an embedded Flink cluster, checks that the table
 * holds every generated row exactly once, and writes the figures as JSON.
 *
 * <p>Arguments: {@code contender scenario work-dir result-file} followed by {@link RunSettings}.
 */
public final class ContenderRun {

  /**
   * How long after submission the JVM counts as warming up: commits of checkpoints completed
   * sooner, and rows generated sooner, are left out of the figures "after warm-up". On this
   * benchmark's 2-core machine the JIT compilers take much of the CPU for the first 8 to 11 seconds
   * of a job.
   */
  static final long WARM_UP_MILLIS = 12_000;

  private ContenderRun() {}

  public static void main(String[] args) throws Exception {
    String name = args[0];
    Scenario scenario = Scenario.of(args[1]);
    Path dir = Path.of(args[2]);
    Path resultFile = Path.of(args[3]);
    RunSettings settings = RunSettings.fromArgs(args, 4);
    RunResult result = run(name, scenario, dir, settings);
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(resultFile.toFile(), result);
    System.exit(0);
  }

  static RunResult run(String name, Scenario scenario, Path dir, RunSettings settings)
      throws Exception {
    try (Contender contender = Contender.named(name);
        EmbeddedFlink flink =
            new EmbeddedFlink(settings.parallelism(), dir.resolve("checkpoints"))) {
      contender.prepare(dir, scenario, settings);
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(settings.parallelism());
      env.enableCheckpointing(settings.checkpointIntervalMs());
      if (settings.objectReuse()) {
        env.getConfig().enableObjectReuse();
      }
      DataGeneratorSource<RowData> source =
          new DataGeneratorSource<>(
              GenerationProgress::row, settings.rows(), InternalTypeInfo.of(BenchmarkRows.TYPE));
      contender.attach(
          env.fromSource(source, WatermarkStrategy.noWatermarks(), ThreadCpu.SOURCE_NAME)
              .uid(ThreadCpu.SOURCE_NAME));

      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      System.gc();
      try (HeapMonitor heap = new HeapMonitor();
          ThreadCpu threadCpu = new ThreadCpu();
          CommitObserver commits = contender.observeCommits()) {
        long cpuStart = os.getProcessCpuTime();
        long start = System.nanoTime();
        long warmedUp = System.currentTimeMillis() + WARM_UP_MILLIS;
        JobID job = flink.submit(env);
        flink.awaitSuccess(job, name + " on " + scenario.id());
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (os.getProcessCpuTime() - cpuStart) / 1e9;
        Thread.sleep(100);
        ThroughputAfterWarmUp warm =
            ThroughputAfterWarmUp.of(
                GenerationProgress.marks(),
                start,
                WARM_UP_MILLIS * 1_000_000,
                GenerationProgress.EVERY);
        List<AbstractCheckpointStats> checkpoints = flink.completedCheckpoints(job);
        List<Long> completions =
            checkpoints.stream()
                .map(AbstractCheckpointStats::getLatestAckTimestamp)
                .sorted()
                .toList();
        java.util.Map<Long, Long> completedAt = new java.util.HashMap<>();
        checkpoints.forEach(c -> completedAt.put(c.getCheckpointId(), c.getLatestAckTimestamp()));
        // Each commit against its own checkpoint where the table records which one it is, else
        // against the latest checkpoint completed before it (FileSink).
        java.util.Map<Long, Long> checkpointOfVersion = contender.checkpointOfVersion();
        List<Long> latencies;
        List<Long> afterWarmUp;
        if (checkpointOfVersion.isEmpty()) {
          latencies = CommitLatencies.of(completions, commits.times());
          afterWarmUp = CommitLatencies.of(completions, commits.times(), warmedUp);
        } else {
          latencies =
              CommitLatencies.ofOwnCheckpoints(
                  completedAt, commits.visible(), checkpointOfVersion, Long.MIN_VALUE);
          afterWarmUp =
              CommitLatencies.ofOwnCheckpoints(
                  completedAt, commits.visible(), checkpointOfVersion, warmedUp);
        }

        // Every generated id exactly once in what the table holds, not in what lies on disk. This
        // sink must be exact; a peer's shortfall is reported with its figures.
        LandedRows.Landing landing = contender.landing(settings.rows());
        String what = name + " on " + scenario.id();
        if (!landing.exact()) {
          if (name.startsWith("delta-")) {
            throw new IllegalStateException(landing.describe(what));
          }
          System.err.println("NOT EXACT: " + landing.describe(what));
        }
        ParquetOutput output = ParquetOutput.read(contender.dataRoot());
        return new RunResult(
            name,
            scenario.id(),
            settings.rows(),
            landing.missing(),
            landing.duplicates(),
            seconds,
            settings.rows() / seconds,
            cpuSeconds,
            settings.rows() / cpuSeconds,
            warm.rows(),
            threadCpu.perRow(warm.fromNanos(), warm.toNanos(), warm.rows()),
            warm.rowsPerSecond(),
            warm.rowsPerSecondPerCore(),
            output.bytes(),
            output.bytes() / 1e6 / seconds,
            output.files(),
            latencies.size(),
            CommitLatencies.percentile(latencies, 50),
            CommitLatencies.percentile(latencies, 99),
            CommitLatencies.percentile(latencies, 100),
            afterWarmUp.size(),
            CommitLatencies.percentile(afterWarmUp, 99),
            heap.peakAfterGc(),
            Runtime.getRuntime().maxMemory(),
            output.codec(),
            settings.parallelism(),
            settings.checkpointIntervalMs(),
            settings.rowGroupBytes(),
            settings.objectReuse(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"),
            new double[] {settings.rows() / seconds},
            new double[] {warm.rowsPerSecond()});
      }
    }
  }
}
