/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The benchmark's read section: bounded reads side by side, then the continuous read's latency. */
final class ReadSection {

  /** Every reader's JVM has this heap, and so do the writes of its tables. */
  private static final String READ_HEAP = "2g";

  private ReadSection() {}

  /**
   * The read section: on each scenario the tables written once ({@link ReadTables}), then each
   * reader's bounded read ({@link ReadRun}) in a JVM of its own, repetitions interleaved and the
   * readers in a new order each time; then the continuous read's latency ({@link ReadLatencyRun}).
   * The figures are printed as a table and written to {@code benchmark-reads.json}.
   */
  static void run(BenchmarkOptions options, Path work, Path out) throws Exception {
    System.out.printf(
        "Reads: %,d rows, parallelism %d, %d repetitions, object reuse %s, heap %s%n",
        options.readRows(),
        ReadRun.PARALLELISM,
        options.repeats(),
        options.objectReuse() ? "on" : "off",
        READ_HEAP);
    String rows = Long.toString(options.readRows());
    java.util.Random order = new java.util.Random(options.orderSeed());
    System.out.printf("Reader order seed: %d (--order-seed to replay)%n", options.orderSeed());
    List<Figures> tables = new ArrayList<>();
    List<Figures> runs = new ArrayList<>();
    for (String scenario : options.scenarios()) {
      Figures written = ChildRuns.measure(ReadTables.class, READ_HEAP, work, scenario, rows);
      tables.add(written);
      System.out.print(written);
      if (written.values().containsKey("failed")) {
        continue;
      }
      for (int repeat = 1; repeat <= options.repeats(); repeat++) {
        List<String> readers = new ArrayList<>(ReadContender.NAMES);
        java.util.Collections.shuffle(readers, order);
        for (String reader : readers) {
          Figures run =
              ChildRuns.measure(
                  ReadRun.class,
                  READ_HEAP,
                  work,
                  reader,
                  scenario,
                  rows,
                  Boolean.toString(options.objectReuse()),
                  Integer.toString(repeat));
          runs.add(run);
          if (run.values().containsKey("failed")) {
            System.out.print(run);
          } else {
            System.out.printf(
                java.util.Locale.ROOT,
                "  %,.0f rows/s, %,.0f ns CPU per row%n",
                run.values().get("rows_per_second"),
                run.values().get("cpu_ns_per_row"));
          }
        }
      }
    }
    Figures latency = null;
    if (options.readLatencyVersions() > 0) {
      latency =
          ChildRuns.measure(
              ReadLatencyRun.class,
              READ_HEAP,
              work,
              Integer.toString(options.readLatencyVersions()),
              "1000",
              "500",
              "1000");
      System.out.print(latency);
    }
    List<Figures> slowStorage = new ArrayList<>();
    for (int repeat = 1; options.slowStorageFiles() > 0 && repeat <= options.repeats(); repeat++) {
      Figures run =
          ChildRuns.measure(
              SlowStorageReadRun.class,
              READ_HEAP,
              work,
              Long.toString(options.slowStorageDelayMs()),
              Integer.toString(options.slowStorageFiles()),
              "20000",
              "1000",
              Integer.toString(repeat));
      System.out.print(run);
      slowStorage.add(run);
    }
    ReadReport report = new ReadReport(tables, runs, latency, slowStorage);
    System.out.println();
    report.print(System.out);
    report.writeJson(out.resolve("benchmark-reads.json"));
  }
}
