/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dynamic section: this project's dynamic sink and Iceberg's {@code DynamicIcebergSink} on the
 * same rows spread over each number of new tables, appending and upserting, each run in a JVM of
 * its own ({@link DynamicRun}); the figures printed as a table with the ratios the targets are
 * stated in, and written to {@code benchmark-dynamic.json}.
 */
final class DynamicSection {

  private static final String OURS = DeltaDynamicContender.NAME;
  private static final String PEER = IcebergDynamicContender.NAME;

  private DynamicSection() {}

  static void run(BenchmarkOptions options, Path work, Path out) throws Exception {
    System.out.printf(
        "Dynamic: %,d rows (upserts: changes over %,d keys) into %s new tables, %s, contenders %s,"
            + " %d repetition(s), parallelism %d, a checkpoint every %d ms, this sink's commit"
            + " interval %d ms, heap %s%n",
        options.dynamicRows(),
        options.dynamicKeys(),
        options.dynamicTables(),
        options.dynamicModes(),
        options.dynamicContenders(),
        options.dynamicRepeats(),
        DynamicRun.PARALLELISM,
        options.dynamicCheckpointMs(),
        options.dynamicCommitIntervalMs(),
        options.dynamicHeap());
    List<Figures> runs = new ArrayList<>();
    for (String mode : options.dynamicModes()) {
      for (int tables : options.dynamicTables()) {
        // Repetitions interleaved, so that a slow spell of the machine hits both contenders.
        for (int repeat = 1; repeat <= options.dynamicRepeats(); repeat++) {
          for (String contender : options.dynamicContenders()) {
            Figures run =
                ChildRuns.measure(
                    DynamicRun.class,
                    options.dynamicHeap(),
                    // The job's limit, and the read's after it.
                    ChildJvm.TIMEOUT.plusSeconds(options.readLimitSeconds()),
                    work,
                    contender,
                    mode,
                    Integer.toString(tables),
                    Long.toString(options.dynamicRows()),
                    Long.toString(options.dynamicKeys()),
                    Long.toString(options.readLimitSeconds()),
                    Integer.toString(repeat),
                    Long.toString(options.dynamicCheckpointMs()),
                    Long.toString(options.dynamicCommitIntervalMs()));
            run.put("mode", mode).put("tables", tables).put("contender", contender);
            runs.add(run);
            System.out.print(run);
            System.out.println();
          }
        }
      }
    }
    print(runs, options, System.out);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("runs", runs.stream().map(Figures::values).toList());
    new ObjectMapper()
        .writerWithDefaultPrettyPrinter()
        .writeValue(out.resolve("benchmark-dynamic.json").toFile(), json);
  }

  /** One line per mode, table count and contender (medians of its repetitions), then the ratios. */
  static void print(List<Figures> runs, BenchmarkOptions options, PrintStream out) {
    out.println();
    out.printf(
        "%-7s %6s %-21s %12s %12s %10s %10s %10s %10s %6s%n",
        "mode",
        "tables",
        "contender",
        "rows/s",
        "after warm",
        "heap MB",
        "p99 ms",
        "create s",
        "read s",
        "exact");
    for (String mode : options.dynamicModes()) {
      for (int tables : options.dynamicTables()) {
        for (String contender : options.dynamicContenders()) {
          List<Map<String, Object>> of = of(runs, mode, tables, contender);
          out.printf(
              Locale.ROOT,
              "%-7s %,6d %-21s %12s %12s %10s %10s %10s %10s %6s%n",
              mode,
              tables,
              contender,
              number("%,.0f", median(of, "rows_per_second")),
              number("%,.0f", median(of, "rows_per_second_after_warm_up")),
              number("%,.1f", median(of, "peak_heap_after_gc_mb")),
              number("%,.0f", median(of, "commit_latency_all_tables_p99_ms")),
              number("%.2f", median(of, "seconds_to_create_all_tables")),
              number("%.1f", median(of, "read_ms") / 1e3),
              exactness(runs, mode, tables, contender));
        }
        List<Map<String, Object>> ours = of(runs, mode, tables, OURS);
        List<Map<String, Object>> peer = of(runs, mode, tables, PEER);
        if (!ours.isEmpty() && !peer.isEmpty()) {
          out.printf(
              Locale.ROOT,
              "%-7s %,6d ours / Iceberg: rows/s %sx (after warm-up %sx), heap %sx, p99 %sx,"
                  + " creation %sx%n",
              mode,
              tables,
              number("%.2f", ratio(ours, peer, "rows_per_second")),
              number("%.2f", ratio(ours, peer, "rows_per_second_after_warm_up")),
              number("%.2f", ratio(ours, peer, "peak_heap_after_gc_mb")),
              number("%.2f", ratio(ours, peer, "commit_latency_all_tables_p99_ms")),
              number("%.2f", ratio(ours, peer, "seconds_to_create_all_tables")));
        }
      }
    }
    out.println(
        "Targets: ours ≥ 1.5x Iceberg's rows/s at 100 tables; heap ≤ 0.5x Iceberg's at 1,000"
            + " tables; commit p99 < 2,000 ms at 1,000 tables.");
    out.println();
  }

  /** The runs of one contender on one mode and table count that did not fail. */
  private static List<Map<String, Object>> of(
      List<Figures> runs, String mode, int tables, String contender) {
    return runs.stream()
        .map(Figures::values)
        .filter(v -> mode.equals(v.get("mode")) && Integer.valueOf(tables).equals(v.get("tables")))
        .filter(v -> contender.equals(v.get("contender")) && !v.containsKey("failed"))
        .toList();
  }

  /** "yes", "no", "n/f" (a read not finished), "fail" (the run failed) or "-" (not run). */
  private static String exactness(List<Figures> runs, String mode, int tables, String contender) {
    List<Map<String, Object>> all =
        runs.stream()
            .map(Figures::values)
            .filter(
                v -> mode.equals(v.get("mode")) && Integer.valueOf(tables).equals(v.get("tables")))
            .filter(v -> contender.equals(v.get("contender")))
            .toList();
    if (all.isEmpty()) {
      return "-";
    } else if (all.stream().anyMatch(v -> v.containsKey("failed"))) {
      return "fail";
    } else if (all.stream().anyMatch(v -> v.containsKey("read_not_finished_within_s"))) {
      return "n/f";
    }
    return all.stream().allMatch(v -> Boolean.TRUE.equals(v.get("exact"))) ? "yes" : "no";
  }

  /** {@code value} in {@code format}, or "-" for {@code NaN} (a figure no run has). */
  private static String number(String format, double value) {
    return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format, value);
  }

  /** The median of a figure over runs; {@code NaN} where no run has it. */
  private static double median(List<Map<String, Object>> runs, String figure) {
    List<Double> values = new ArrayList<>();
    for (Map<String, Object> run : runs) {
      if (run.get(figure) instanceof Number number && !Double.isNaN(number.doubleValue())) {
        values.add(number.doubleValue());
      }
    }
    if (values.isEmpty()) {
      return Double.NaN;
    }
    values.sort(null);
    return values.get((values.size() - 1) / 2);
  }

  private static double ratio(
      List<Map<String, Object>> ours, List<Map<String, Object>> peer, String figure) {
    return median(ours, figure) / median(peer, figure);
  }
}
