/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.table.data.RowData;

/**
 * How far the benchmark's source has got: every {@link #EVERY} rows a source subtask generates, the
 * wall-clock time and the process's CPU time. The source and the sink's writer are chained in one
 * thread, so a row generated is a row the sink has taken.
 *
 * <p>The embedded Flink cluster runs its tasks in the JVM that submits the job, so the job's
 * generator and the run that reads the marks share this class's state; one job per JVM.
 */
final class GenerationProgress {

  /** Rows between two marks of one subtask. */
  static final long EVERY = 50_000;

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final ConcurrentLinkedQueue<Mark> MARKS = new ConcurrentLinkedQueue<>();

  private GenerationProgress() {}

  /** Row {@code i} of {@link BenchmarkRows}, marking progress every {@link #EVERY} rows. */
  static RowData row(long i) {
    mark(i);
    return BenchmarkRows.row(i);
  }

  /** Marks progress when row {@code i} ends another {@link #EVERY} rows of this subtask. */
  static void mark(long i) {
    if (i % EVERY == EVERY - 1) {
      MARKS.add(
          new Mark(System.nanoTime(), OS.getProcessCpuTime(), Thread.currentThread().getId()));
    }
  }

  /** The marks so far, in time order. */
  static List<Mark> marks() {
    List<Mark> marks = new ArrayList<>(MARKS);
    marks.sort(Comparator.comparingLong(Mark::nanoTime));
    return marks;
  }

  /**
   * The moment a subtask had generated another {@link #EVERY} rows.
   *
   * @param nanoTime {@link System#nanoTime()}
   * @param cpuNanos CPU time of the whole process so far
   * @param thread the id of the subtask's thread
   */
  record Mark(long nanoTime, long cpuNanos, long thread) {}
}
