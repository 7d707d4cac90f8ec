/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Throughput once the JVM has warmed up. In the first seconds of a job the JIT compilers take a
 * large share of the cores, and rows pass through interpreted code, so a short job's average says
 * more about the JVM's warm-up than about the sink; a long-running stream sees the rate after it.
 *
 * <p>The window opens at the first progress mark taken {@code warmUpNanos} after the job's
 * submission and closes at the last mark of the subtask that finished generating first, so that
 * every subtask is generating throughout.
 *
 * @param rows rows generated in the window
 * @param seconds the window's length
 * @param cpuSeconds CPU time the whole process used in the window
 * @param fromNanos where the window opens, in {@link System#nanoTime()}
 * @param toNanos where it closes
 */
record ThroughputAfterWarmUp(
    long rows, double seconds, double cpuSeconds, long fromNanos, long toNanos) {

  static final ThroughputAfterWarmUp NONE = new ThroughputAfterWarmUp(0, 0, 0, 0, 0);

  static ThroughputAfterWarmUp of(
      List<GenerationProgress.Mark> marks,
      long submittedNanos,
      long warmUpNanos,
      long rowsPerMark) {
    long closes =
        marks.stream()
            .collect(
                Collectors.toMap(
                    GenerationProgress.Mark::thread, GenerationProgress.Mark::nanoTime, Math::max))
            .values()
            .stream()
            .mapToLong(Long::longValue)
            .min()
            .orElse(Long.MIN_VALUE);
    List<GenerationProgress.Mark> window =
        marks.stream()
            .filter(mark -> mark.nanoTime() - submittedNanos >= warmUpNanos)
            .filter(mark -> mark.nanoTime() <= closes)
            .toList();
    if (window.size() < 3) {
      return NONE;
    }
    GenerationProgress.Mark first = window.get(0);
    GenerationProgress.Mark last = window.get(window.size() - 1);
    return new ThroughputAfterWarmUp(
        (window.size() - 1) * rowsPerMark,
        (last.nanoTime() - first.nanoTime()) / 1e9,
        (last.cpuNanos() - first.cpuNanos()) / 1e9,
        first.nanoTime(),
        last.nanoTime());
  }

  /** {@code NaN} when the job ended before the warm-up did. */
  double rowsPerSecond() {
    return rows == 0 ? Double.NaN : rows / seconds;
  }

  double rowsPerSecondPerCore() {
    return rows == 0 ? Double.NaN : rows / cpuSeconds;
  }
}
