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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The upsert section's results: one row per run, the ratios the targets name, and the index
 * build; printed as a Markdown table and written as JSON.
 */
final class UpsertReport {

  /** The upsert writer's log line on building its index from the table. */
  private static final Pattern KEY_READ =
      Pattern.compile("read the keys of (\\d+) rows of version (\\d+) in (\\d+) ms");

  /** The upsert writer's log line on reading other writers' versions in the background. */
  private static final Pattern FOLLOW_READ =
      Pattern.compile(
          "read (\\d+) row changes of its keys in (\\d+) versions of other writers"
              + " \\(versions (\\d+) to (\\d+)\\) in (\\d+) ms");

  /** The upsert writer's log line on applying what it read to its index, at a checkpoint. */
  private static final Pattern FOLLOW_APPLY =
      Pattern.compile("followed (\\d+) versions of other writers to version (\\d+) in (\\d+) ms");

  private final List<Figures> runs;
  private final Figures index;

  UpsertReport(List<Figures> runs, Figures index) {
    this.runs = runs;
    this.index = index;
  }

  /** Adds each writer's rows and milliseconds from the index build's log to its figures. */
  static void indexReadTimes(Path log, Figures index) throws IOException {
    if (!Files.exists(log)) {
      return;
    }
    List<Long> rows = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      Matcher matcher = KEY_READ.matcher(line);
      if (matcher.find()) {
        rows.add(Long.parseLong(matcher.group(1)));
        millis.add(Long.parseLong(matcher.group(3)));
      }
    }
    index.put("writer_key_read_rows", rows).put("writer_key_read_ms", millis);
  }

  /**
   * Adds what the writers' logs of a run say of following other writers' versions: each background
   * read's row changes and milliseconds, and each application's milliseconds at a checkpoint.
   */
  static void followTimes(Path log, Figures figures) throws IOException {
    if (!Files.exists(log)) {
      return;
    }
    List<Long> readRows = new ArrayList<>();
    List<Long> readMillis = new ArrayList<>();
    List<Long> applyMillis = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      Matcher read = FOLLOW_READ.matcher(line);
      if (read.find()) {
        readRows.add(Long.parseLong(read.group(1)));
        readMillis.add(Long.parseLong(read.group(5)));
      }
      Matcher apply = FOLLOW_APPLY.matcher(line);
      if (apply.find()) {
        applyMillis.add(Long.parseLong(apply.group(3)));
      }
    }
    figures
        .put("follow_reads", readRows.size())
        .put("follow_read_row_changes_max", readRows.stream().mapToLong(r -> r).max().orElse(0))
        .put("follow_read_ms_max", readMillis.stream().mapToLong(m -> m).max().orElse(0))
        .put("follow_apply_ms_max", applyMillis.stream().mapToLong(m -> m).max().orElse(0));
    if (readRows.size() <= 8) {
      figures.put("follow_read_row_changes", readRows).put("follow_read_ms", readMillis);
      figures.put("follow_apply_ms", applyMillis);
    }
  }

  void print(PrintStream out) {
    out.println(
        "| contender | state backend | changes/s (whole job) | changes/s after warm-up | CPU µs"
            + " per change | read ms (first / again) | rows read / live keys | data files (with"
            + " deletes) | delete files | index bytes per key | heap after GC (peak) |");
    out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Figures run : runs) {
      Map<String, Object> v = run.values();
      if (v.containsKey("failed")) {
        out.printf("| %s | failed: %s |%n", v.get("measurement"), v.get("failed"));
        continue;
      }
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s | %s | %s | %s / %s | %s / %s%s | %s (%s) | %s | %s | %s MB |%n",
          v.get("contender"),
          v.get("state_backend"),
          number(v.get("changes_per_second"), 0),
          number(v.get("changes_per_second_after_warm_up"), 0),
          number(v.get("cpu_us_per_change"), 2),
          v.containsKey("read_not_finished_within_s")
              ? "not finished in " + v.get("read_not_finished_within_s") + " s"
              : number(v.get("read_ms"), 0),
          number(v.get("read_again_ms"), 0),
          number(v.get("rows_read"), 0),
          number(v.get("live_keys_expected"), 0),
          !v.containsKey("exact")
              ? " (not read)"
              : Boolean.TRUE.equals(v.get("exact")) ? "" : " NOT EXACT",
          number(v.get("data_files"), 0),
          number(v.get("data_files_with_deletes"), 0),
          number(v.get("delete_files"), 0),
          number(v.get("index_state_bytes_per_live_key"), 1),
          number(v.get("peak_heap_after_gc_mb"), 0));
    }
    Map<String, Object> ours = run(DeltaUpsertContender.NAME, "hashmap");
    if (ours != null) {
      for (String peer : List.of(IcebergUpsertContender.NAME, PaimonUpsertContender.NAME)) {
        Map<String, Object> theirs = run(peer, "hashmap");
        if (theirs == null) {
          continue;
        }
        out.printf(
            Locale.ROOT,
            "%s / %s: write %s (whole job), %s (after warm-up); CPU per change %s; %s / %s read"
                + " time: %s%n",
            DeltaUpsertContender.NAME,
            peer,
            ratio(ours.get("changes_per_second"), theirs.get("changes_per_second")),
            ratio(
                ours.get("changes_per_second_after_warm_up"),
                theirs.get("changes_per_second_after_warm_up")),
            ratio(ours.get("cpu_us_per_change"), theirs.get("cpu_us_per_change")),
            peer,
            DeltaUpsertContender.NAME,
            theirs.get("read_not_finished_within_s") instanceof Number limit
                ? "more than "
                    + ratio(limit.doubleValue() * 1_000, ours.get("read_ms"))
                    + " (not finished)"
                : ratio(theirs.get("read_ms"), ours.get("read_ms")));
      }
    }
    if (index != null) {
      out.println();
      out.print(index);
    }
  }

  void writeJson(Path file) throws IOException {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("runs", runs.stream().map(Figures::values).toList());
    json.put("index_build", index == null ? null : index.values());
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), json);
  }

  private Map<String, Object> run(String contender, String backend) {
    return runs.stream()
        .map(Figures::values)
        .filter(v -> contender.equals(v.get("contender")) && backend.equals(v.get("state_backend")))
        .filter(v -> !v.containsKey("failed"))
        .findFirst()
        .orElse(null);
  }

  private static String number(Object value, int decimals) {
    if (!(value instanceof Number n)) {
      return "—";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", n.doubleValue());
  }

  private static String ratio(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && y.doubleValue() != 0) {
      return String.format(Locale.ROOT, "%.2f×", x.doubleValue() / y.doubleValue());
    }
    return "—";
  }
}
