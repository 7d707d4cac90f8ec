/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The compaction section's results: one row per run ({@link CompactionRun}), and the two
 * targets, each met or missed: the compacted table's full scan within 1.5× of the large-file
 * table's (the second, warm, reads), and the compacting stream's commit p99 below 500 ms (over all
 * its commits, JIT warm-up included; the p99 after warm-up is in the table beside it). Printed as a
 * Markdown table and written as JSON.
 */
final class CompactionReport {

  static final double READ_TIME_LIMIT = 1.5;
  static final double COMMIT_P99_LIMIT_MS = 500;

  private final List<Figures> runs;

  CompactionReport(List<Figures> runs) {
    this.runs = List.copyOf(runs);
  }

  /**
   * Adds what the run's log says of compactions the table's log cannot show: runs that failed, were
   * cancelled as the sink closed, or gave up on conflicts, and rewrites logged.
   */
  static void compactionLog(Path log, Figures run) throws IOException {
    if (!Files.exists(log)) {
      return;
    }
    long compacted = 0;
    long failed = 0;
    long cancelled = 0;
    long gaveUp = 0;
    for (String line : Files.readAllLines(log)) {
      if (line.contains("TableCompaction") && line.contains(" Compacted ")) {
        compacted++;
      } else if (line.contains("Compaction of ")) {
        failed += line.contains(" failed;") ? 1 : 0;
        cancelled += line.contains(" cancelled:") ? 1 : 0;
        gaveUp += line.contains(" gave up ") ? 1 : 0;
      }
    }
    run.put("compactions_logged", compacted)
        .put("compaction_runs_failed", failed)
        .put("compaction_runs_cancelled", cancelled)
        .put("compaction_runs_given_up", gaveUp);
  }

  void print(PrintStream out) {
    out.println(
        "| run | versions (stream commits + compactions) | data files | mean file MB | read ms"
            + " (first / warm) | rows read | commit p50 / p99 ms (p99 after warm-up) |"
            + " compactions (failed) | files / MB rewritten | compaction MB/s | write"
            + " amplification |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Figures run : runs) {
      Map<String, Object> v = run.values();
      if (v.containsKey("failed")) {
        out.printf("| %s | failed: %s |%n", v.get("measurement"), v.get("failed"));
        continue;
      }
      out.printf(
          Locale.ROOT,
          "| %s | %s (%s + %s) | %s | %s | %s / %s | %s%s | %s / %s (%s) | %s (%s) | %s / %s | %s |"
              + " %s |%n",
          v.get("run"),
          number(v.get("table_version"), 0),
          number(v.get("data_commits"), 0),
          number(v.get("compactions"), 0),
          number(v.get("data_files"), 0),
          number(v.get("mean_file_mb"), 2),
          number(v.get("read_ms"), 0),
          number(v.get("read_again_ms"), 0),
          number(v.get("rows_read"), 0),
          Boolean.TRUE.equals(v.get("exact")) ? " exact" : " NOT EXACT",
          number(v.get("commit_latency_p50_ms"), 0),
          number(v.get("commit_latency_p99_ms"), 0),
          number(v.get("commit_latency_p99_after_warm_up_ms"), 0),
          number(v.get("compactions"), 0),
          number(v.get("compaction_runs_failed"), 0),
          number(v.get("compaction_files_rewritten"), 0),
          number(megabytes(v.get("compaction_bytes_rewritten")), 1),
          number(v.get("compaction_mb_per_s"), 1),
          number(v.get("compaction_write_amplification"), 2));
    }
    Map<String, Object> compacting = run(CompactionRun.COMPACTING);
    Map<String, Object> stream = run(CompactionRun.STREAM);
    if (compacting != null) {
      // The read target alone can be met by a table that hardly compacted: say what it holds.
      out.printf(
          Locale.ROOT,
          "%s: %s compactions committed, %s runs failed, %s cancelled as the sink closed; %s data"
              + " files, against %s without compaction%n",
          CompactionRun.COMPACTING,
          number(compacting.get("compactions"), 0),
          number(compacting.get("compaction_runs_failed"), 0),
          number(compacting.get("compaction_runs_cancelled"), 0),
          number(compacting.get("data_files"), 0),
          stream == null ? "—" : number(stream.get("data_files"), 0));
    }
    for (Map<String, Object> target : targets()) {
      out.printf(
          Locale.ROOT,
          "%s: %s (limit %s): %s%n",
          target.get("target"),
          target.get("figure") instanceof Number n
              ? String.format(Locale.ROOT, "%.2f", n.doubleValue())
              : "—",
          target.get("limit"),
          target.get("verdict"));
    }
  }

  void writeJson(Path file) throws IOException {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("runs", runs.stream().map(Figures::values).toList());
    json.put("targets", targets());
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json);
  }

  /** The two targets with their figures, each met, missed or not measured. */
  List<Map<String, Object>> targets() {
    Map<String, Object> compacting = run(CompactionRun.COMPACTING);
    Map<String, Object> large = run(CompactionRun.LARGE_FILES);
    List<Map<String, Object>> targets = new ArrayList<>();
    Double readRatio =
        compacting == null || large == null
            ? null
            : ratio(compacting.get("read_again_ms"), large.get("read_again_ms"));
    targets.add(
        target(
            "full-scan read time, compacted table / large-file table (warm reads)",
            readRatio,
            "≤ " + READ_TIME_LIMIT + "×",
            readRatio == null ? null : readRatio <= READ_TIME_LIMIT));
    Object p99 = compacting == null ? null : compacting.get("commit_latency_p99_ms");
    Double p99Ms = p99 instanceof Number n ? n.doubleValue() : null;
    targets.add(
        target(
            "stream commit p99 with compaction on, ms",
            p99Ms,
            "< " + (long) COMMIT_P99_LIMIT_MS + " ms",
            p99Ms == null ? null : p99Ms < COMMIT_P99_LIMIT_MS));
    return targets;
  }

  private static Map<String, Object> target(String name, Double figure, String limit, Boolean met) {
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("target", name);
    target.put("figure", figure);
    target.put("limit", limit);
    target.put("verdict", met == null ? "not measured" : met ? "met" : "missed");
    return target;
  }

  /** The figures of the run of {@code kind}, when it ran and read back exactly. */
  private Map<String, Object> run(String kind) {
    return runs.stream()
        .map(Figures::values)
        .filter(v -> kind.equals(v.get("run")) && Boolean.TRUE.equals(v.get("exact")))
        .findFirst()
        .orElse(null);
  }

  private static Double ratio(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && y.doubleValue() > 0) {
      return x.doubleValue() / y.doubleValue();
    }
    return null;
  }

  private static Object megabytes(Object bytes) {
    return bytes instanceof Number n ? n.doubleValue() / 1e6 : null;
  }

  private static String number(Object value, int decimals) {
    if (!(value instanceof Number n)) {
      return "—";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", n.doubleValue());
  }
}
