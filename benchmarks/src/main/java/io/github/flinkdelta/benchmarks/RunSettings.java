/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.List;

/**
 * What every contender of one comparison shares: rows, parallelism, checkpoint interval, Parquet
 * codec, row-group and page size, and whether Flink's object reuse is on (off, Flink's default,
 * makes Flink copy every row between the chained source and the sink). Stated next to every figure.
 */
public record RunSettings(
    long rows,
    int parallelism,
    long checkpointIntervalMs,
    String codec,
    long rowGroupBytes,
    int pageBytes,
    String childHeap,
    boolean objectReuse) {

  public static RunSettings defaults(long rows) {
    return new RunSettings(rows, 2, 1_000, "SNAPPY", 128L << 20, 1 << 20, "2g", false);
  }

  RunSettings withRows(long count) {
    return new RunSettings(
        count,
        parallelism,
        checkpointIntervalMs,
        codec,
        rowGroupBytes,
        pageBytes,
        childHeap,
        objectReuse);
  }

  RunSettings withObjectReuse(boolean on) {
    return new RunSettings(
        rows, parallelism, checkpointIntervalMs, codec, rowGroupBytes, pageBytes, childHeap, on);
  }

  List<String> toArgs() {
    return List.of(
        Long.toString(rows),
        Integer.toString(parallelism),
        Long.toString(checkpointIntervalMs),
        codec,
        Long.toString(rowGroupBytes),
        Integer.toString(pageBytes),
        childHeap,
        Boolean.toString(objectReuse));
  }

  static RunSettings fromArgs(String[] args, int from) {
    return new RunSettings(
        Long.parseLong(args[from]),
        Integer.parseInt(args[from + 1]),
        Long.parseLong(args[from + 2]),
        args[from + 3],
        Long.parseLong(args[from + 4]),
        Integer.parseInt(args[from + 5]),
        args[from + 6],
        Boolean.parseBoolean(args[from + 7]));
  }
}
