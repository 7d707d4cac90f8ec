/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The read section's results: each reader on each scenario by its median repetition (by rows/s; the
 * slower of two), the ratios of this source's rows/s to its peers', and the continuous read's
 * latency against its target, p99 of the first row below the poll interval plus {@value
 * #LATENCY_MARGIN_MS} ms. Printed as a Markdown table and written as JSON.
 */
final class ReadReport {

  static final long LATENCY_MARGIN_MS = 500;

  private final List<Figures> tables;
  private final List<Figures> runs;
  private final Figures latency;
  private final List<Figures> slowStorage;

  /**
   * @param tables the writes of the tables read
   * @param runs every repetition of every reader
   * @param latency the continuous read, or null when it was not measured
   * @param slowStorage each repetition of the continuous read's checkpoints on slow S3
   */
  ReadReport(List<Figures> tables, List<Figures> runs, Figures latency, List<Figures> slowStorage) {
    this.tables = List.copyOf(tables);
    this.runs = List.copyOf(runs);
    this.latency = latency;
    this.slowStorage = List.copyOf(slowStorage);
  }

  void print(PrintStream out) {
    out.println(
        "| reader | scenario | rows | rows/s (median) | rows/s of repetitions | seconds | CPU ns"
            + " per row |");
    out.println("|---|---|---:|---:|---:|---:|---:|");
    for (Map<String, Object> v : medians()) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s | %s |%n",
          v.get("reader"),
          v.get("scenario"),
          number(v.get("rows"), 0),
          number(v.get("rows_per_second"), 0),
          String.join(
              " / ",
              ((List<?>) v.get("rows_per_second_of_repetitions"))
                  .stream().map(r -> number(r, 0)).toList()),
          number(v.get("seconds"), 2),
          number(v.get("cpu_ns_per_row"), 0));
    }
    for (Figures run : runs) {
      if (run.values().containsKey("failed")) {
        out.printf(
            "| %s | failed: %s |%n", run.values().get("measurement"), run.values().get("failed"));
      }
    }
    for (Map<String, Object> ratio : ratios()) {
      out.printf(
          Locale.ROOT,
          "%s: %s / %s rows/s %s, %s / %s rows/s %s%n",
          ratio.get("scenario"),
          DeltaSourceContender.NAME,
          IcebergSourceContender.NAME,
          times(ratio.get(DeltaSourceContender.NAME + " / " + IcebergSourceContender.NAME)),
          DeltaSourceContender.NAME,
          ParquetFilesContender.NAME,
          times(ratio.get(DeltaSourceContender.NAME + " / " + ParquetFilesContender.NAME)));
    }
    if (latency != null) {
      Map<String, Object> v = latency.values();
      if (v.containsKey("failed")) {
        out.printf("continuous read latency: failed: %s%n", v.get("failed"));
      } else {
        out.printf(
            Locale.ROOT,
            "continuous read latency, %s versions of %s rows, one every %s ms on average, poll every"
                + " %s ms:"
                + " first row p50 %s ms, p99 %s ms; last row p50 %s ms, p99 %s ms%n",
            v.get("versions"),
            v.get("rows_per_version"),
            v.get("commit_interval_mean_ms"),
            v.get("poll_interval_ms"),
            number(v.get("first_row_latency_p50_ms"), 0),
            number(v.get("first_row_latency_p99_ms"), 0),
            number(v.get("last_row_latency_p50_ms"), 0),
            number(v.get("last_row_latency_p99_ms"), 0));
      }
      Map<String, Object> target = target();
      out.printf(
          Locale.ROOT,
          "%s: %s (limit %s): %s%n",
          target.get("target"),
          number(target.get("figure"), 0),
          target.get("limit"),
          target.get("verdict"));
    }
    printSlowStorage(out);
  }

  private void printSlowStorage(PrintStream out) {
    for (Figures run : slowStorage) {
      Map<String, Object> v = run.values();
      if (v.containsKey("failed")) {
        out.printf("checkpoints on slow S3: failed: %s%n", v.get("failed"));
        continue;
      }
      out.printf(
          Locale.ROOT,
          "checkpoints of a continuous read, S3 requests %s ms slower, %s files: %s checkpoints,"
              + " end to end p50 %s ms, p90 %s ms, max %s ms; sink alignment p50 %s ms, p90 %s ms,"
              + " max %s ms; last row after %s s%n",
          v.get("s3_delay_ms"),
          v.get("files"),
          v.get("checkpoints_completed"),
          number(v.get("checkpoint_p50_ms"), 0),
          number(v.get("checkpoint_p90_ms"), 0),
          number(v.get("checkpoint_max_ms"), 0),
          number(v.get("alignment_p50_ms"), 0),
          number(v.get("alignment_p90_ms"), 0),
          number(v.get("alignment_max_ms"), 0),
          number(v.get("seconds_to_last_row"), 1));
    }
  }

  void writeJson(Path file) throws IOException {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("tables", tables.stream().map(Figures::values).toList());
    json.put("readers", medians());
    json.put("ratios", ratios());
    json.put("runs", runs.stream().map(Figures::values).toList());
    json.put("latency", latency == null ? null : latency.values());
    json.put("slow_storage", slowStorage.stream().map(Figures::values).toList());
    json.put("targets", latency == null ? List.of() : List.of(target()));
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json);
  }

  /**
   * Each reader on each scenario by its median repetition, with the rows/s of all of them; with an
   * even number of repetitions the slower middle one, so that no reader is reported by its luckier
   * run.
   */
  List<Map<String, Object>> medians() {
    List<Map<String, Object>> medians = new ArrayList<>();
    for (Scenario scenario : Scenario.values()) {
      for (String reader : ReadContender.NAMES) {
        List<Map<String, Object>> repetitions =
            runs.stream()
                .map(Figures::values)
                .filter(v -> !v.containsKey("failed"))
                .filter(v -> scenario.id().equals(v.get("scenario")))
                .filter(v -> reader.equals(v.get("reader")))
                .toList();
        if (repetitions.isEmpty()) {
          continue;
        }
        List<Map<String, Object>> sorted = new ArrayList<>(repetitions);
        sorted.sort(Comparator.comparingDouble(ReadReport::rate));
        Map<String, Object> median = new LinkedHashMap<>(sorted.get((sorted.size() - 1) / 2));
        median.remove("measurement");
        median.put("repetitions", repetitions.size());
        median.put(
            "rows_per_second_of_repetitions",
            repetitions.stream().map(v -> v.get("rows_per_second")).toList());
        medians.add(median);
      }
    }
    return medians;
  }

  /** For each scenario, this source's median rows/s over each peer's. */
  List<Map<String, Object>> ratios() {
    List<Map<String, Object>> ratios = new ArrayList<>();
    List<Map<String, Object>> medians = medians();
    for (Object scenario : medians.stream().map(v -> v.get("scenario")).distinct().toList()) {
      Map<String, Object> ratio = new LinkedHashMap<>();
      ratio.put("scenario", scenario);
      Double ours = rateOf(medians, scenario, DeltaSourceContender.NAME);
      for (String peer : List.of(IcebergSourceContender.NAME, ParquetFilesContender.NAME)) {
        Double theirs = rateOf(medians, scenario, peer);
        ratio.put(
            DeltaSourceContender.NAME + " / " + peer,
            ours == null || theirs == null ? null : ours / theirs);
      }
      ratios.add(ratio);
    }
    return ratios;
  }

  /** The continuous read's target: the first row's p99 latency below the poll interval + 500 ms. */
  Map<String, Object> target() {
    Map<String, Object> v = latency.values();
    Object p99 = v.get("first_row_latency_p99_ms");
    Object poll = v.get("poll_interval_ms");
    Double figure = p99 instanceof Number n ? n.doubleValue() : null;
    Double limit = poll instanceof Number n ? n.doubleValue() + LATENCY_MARGIN_MS : null;
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("target", "continuous read, first row p99 latency after the commit, ms");
    target.put("figure", figure);
    target.put(
        "limit",
        limit == null
            ? "poll interval + " + LATENCY_MARGIN_MS + " ms"
            : String.format(Locale.ROOT, "< %.0f ms", limit));
    target.put(
        "verdict",
        figure == null || limit == null ? "not measured" : figure < limit ? "met" : "missed");
    return target;
  }

  private static Double rateOf(List<Map<String, Object>> medians, Object scenario, String reader) {
    return medians.stream()
        .filter(v -> scenario.equals(v.get("scenario")) && reader.equals(v.get("reader")))
        .map(ReadReport::rate)
        .findFirst()
        .orElse(null);
  }

  private static double rate(Map<String, Object> run) {
    return ((Number) run.get("rows_per_second")).doubleValue();
  }

  private static String times(Object ratio) {
    return ratio instanceof Number n ? String.format(Locale.ROOT, "%.2f×", n.doubleValue()) : "—";
  }

  private static String number(Object value, int decimals) {
    if (!(value instanceof Number n)) {
      return "—";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", n.doubleValue());
  }
}
