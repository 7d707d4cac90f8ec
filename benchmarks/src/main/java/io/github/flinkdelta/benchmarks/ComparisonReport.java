/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/** The side-by-side comparison as a text table, JSON and PNG charts. */
final class ComparisonReport {

  private static final List<String> OURS =
      List.of(DeltaPathContender.NAME, DeltaUnityCatalogContender.NAME);

  /** Ours / the discarding sink's warm rows/s that the comparison aims at. */
  private static final double SHARE_OF_DISCARDING_TARGET = 0.75;

  private final List<RunResult> results;

  ComparisonReport(List<RunResult> results) {
    this.results = List.copyOf(results);
  }

  void print(PrintStream out) {
    out.printf(
        "Flink %s for every contender; %s runs Iceberg's runtime for Flink 2.1 (Iceberg publishes"
            + " none for later Flink versions).%n",
        org.apache.flink.runtime.util.EnvironmentInformation.getVersion(), IcebergContender.NAME);
    out.printf(
        "%-22s %-14s %11s %11s %11s %8s %6s %7s %8s %8s %12s %9s %6s%n",
        "contender",
        "scenario",
        "warm rows/s",
        "rows/s",
        "rows/s/core",
        "MB/s",
        "files",
        "commits",
        "p50 ms",
        "p99 ms",
        "p99 warm ms",
        "heap MB",
        "codec");
    for (RunResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-22s %-14s %,11.0f %,11.0f %,11.0f %8.1f %6d %7d %8.0f %8.0f %12.0f %9.0f %6s%n",
          r.contender(),
          r.scenario(),
          r.rowsPerSecondAfterWarmUp(),
          r.rowsPerSecond(),
          r.rowsPerSecondPerCore(),
          r.parquetMbPerSecond(),
          r.files(),
          r.commits(),
          r.commitLatencyP50Ms(),
          r.commitLatencyP99Ms(),
          r.commitLatencyP99AfterWarmUpMs(),
          r.peakHeapBytes() / 1e6,
          r.codec());
    }
    out.println();
    out.printf(
        "warm rows/s: after the first %d s of the job; rows/s: the whole job, start-up included.%n",
        ContenderRun.WARM_UP_MILLIS / 1_000);
    for (RunResult r : results) {
      if (r.rowsMissing() != 0 || r.rowsDuplicated() != 0) {
        out.printf(
            Locale.ROOT,
            "NOT EXACT: %s on %s: its table lacks %,d of the %,d rows and holds %,d twice (in its"
                + " reported repetition); its figures count rows it did not deliver.%n",
            r.contender(),
            r.scenario(),
            r.rowsMissing(),
            r.rows(),
            r.rowsDuplicated());
      }
    }
    out.println();
    out.println(
        "Ours / peer (warm rows/s; warm rows/s per core; rows/s; rows/s per core), same scenario:");
    for (RunResult ours : results) {
      if (!OURS.contains(ours.contender())) {
        continue;
      }
      for (RunResult peer : results) {
        if (OURS.contains(peer.contender()) || !peer.scenario().equals(ours.scenario())) {
          continue;
        }
        out.printf(
            Locale.ROOT,
            "  %-22s / %-22s %-14s %5.2fx  %5.2fx  %5.2fx  %5.2fx%n",
            ours.contender(),
            peer.contender(),
            ours.scenario(),
            ours.rowsPerSecondAfterWarmUp() / peer.rowsPerSecondAfterWarmUp(),
            ours.rowsPerSecondPerCoreAfterWarmUp() / peer.rowsPerSecondPerCoreAfterWarmUp(),
            ours.rowsPerSecond() / peer.rowsPerSecond(),
            ours.rowsPerSecondPerCore() / peer.rowsPerSecondPerCore());
      }
    }
  }

  /**
   * CPU per row after warm-up by the kind of thread, and the sink writer's share: its chained
   * task's CPU per row less the discarding sink's, which is the generator's and Flink's alone.
   */
  void printCpuSplit(PrintStream out) {
    out.println(
        "CPU ns per row after warm-up, by thread: the chained source and sink writer, the other"
            + " task threads (aggregator, committer), other Java threads, JIT and GC; writer: the"
            + " first less the discarding sink's on the same scenario.");
    out.printf(
        "%-22s %-14s %14s %10s %8s %8s %8s %8s%n",
        "contender",
        "scenario",
        "source+writer",
        "committer",
        "other",
        "JIT+GC",
        "total",
        "writer");
    for (RunResult r : results) {
      ThreadCpu.PerRow cpu = r.cpuPerRowAfterWarmUp();
      double writer =
          discarding(r.scenario())
              .map(d -> cpu.sourceAndWriter() - d.cpuPerRowAfterWarmUp().sourceAndWriter())
              .orElse(Double.NaN);
      out.printf(
          Locale.ROOT,
          "%-22s %-14s %,14.0f %,10.0f %,8.0f %,8.0f %,8.0f %,8.0f%n",
          r.contender(),
          r.scenario(),
          cpu.sourceAndWriter(),
          cpu.committer(),
          cpu.otherThreads(),
          cpu.jitAndGc(),
          cpu.total(),
          writer);
    }
    for (RunResult ours : results) {
      if (!OURS.contains(ours.contender())) {
        continue;
      }
      discarding(ours.scenario())
          .ifPresent(
              limit -> {
                double ratio = ours.rowsPerSecondAfterWarmUp() / limit.rowsPerSecondAfterWarmUp();
                out.printf(
                    Locale.ROOT,
                    "%s / %s on %s, warm rows/s: %.2fx (target >= %.2fx): %s%n",
                    ours.contender(),
                    DiscardingContender.NAME,
                    ours.scenario(),
                    ratio,
                    SHARE_OF_DISCARDING_TARGET,
                    Double.isNaN(ratio)
                        ? "not measured (a run ended before its warm-up did)"
                        : ratio >= SHARE_OF_DISCARDING_TARGET ? "met" : "missed");
              });
    }
  }

  private java.util.Optional<RunResult> discarding(String scenario) {
    return results.stream()
        .filter(r -> r.contender().equals(DiscardingContender.NAME))
        .filter(r -> r.scenario().equals(scenario))
        .findFirst();
  }

  void writeJson(Path file) throws IOException {
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
  }

  void writeCharts(Path dir) throws IOException {
    chart(
        dir.resolve("benchmark-throughput.png"),
        "Rows per second after warm-up (higher is better)",
        "rows/s",
        RunResult::rowsPerSecondAfterWarmUp);
    chart(
        dir.resolve("benchmark-commit-latency.png"),
        "Commit latency p99, checkpoint complete to visible (lower is better)",
        "ms",
        RunResult::commitLatencyP99Ms);
  }

  private void chart(Path file, String title, String axis, ToDoubleFunction<RunResult> value)
      throws IOException {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (RunResult r : results) {
      double figure = value.applyAsDouble(r);
      if (!Double.isNaN(figure)) {
        data.addValue(figure, r.contender(), r.scenario());
      }
    }
    JFreeChart chart =
        ChartFactory.createBarChart(
            title, "scenario", axis, data, PlotOrientation.VERTICAL, true, false, false);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 900, 500);
  }
}
