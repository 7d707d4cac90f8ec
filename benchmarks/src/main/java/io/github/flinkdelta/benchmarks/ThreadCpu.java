/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The process's CPU time split by the kind of thread that spent it, sampled every {@value
 * #SAMPLE_MILLIS} ms on a thread of its own while a job runs, so that a window of the job can be
 * split after it ended (Flink's task threads are gone by then). A thread that ends keeps the CPU
 * time of its last sample.
 *
 * <p>The groups: the thread of the chained source and sink writer (the task named after the source,
 * {@value #SOURCE_NAME}); the other Flink task threads (the sink's aggregator and committer, or a
 * peer's committer); every other Java thread (Flink's runtime, the embedded catalog, the
 * benchmark's observers); and what no Java thread spent: the JIT compilers and the garbage
 * collector.
 */
final class ThreadCpu implements AutoCloseable {

  /** The name the benchmark's jobs give their source; its task thread is named after it. */
  static final String SOURCE_NAME = "rows";

  private static final long SAMPLE_MILLIS = 100;
  private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

  private static final int SOURCE_AND_WRITER = 0;
  private static final int COMMITTER = 1;
  private static final int OTHER_THREADS = 2;
  private static final int JIT_AND_GC = 3;

  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final Map<Long, Integer> groupOf = new HashMap<>();
  private final Map<Long, Long> lastCpu = new HashMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private final Thread sampler;
  private volatile boolean running = true;

  /** Cumulative CPU nanoseconds of each group at one moment. */
  private record Sample(long nanoTime, long[] groupNanos) {}

  /**
   * CPU nanoseconds per row of each group over a window.
   *
   * @param sourceAndWriter the generator, Flink's handing of rows to the sink, and the sink's
   *     writer
   * @param committer the sink's aggregator and committer tasks
   * @param otherThreads Flink's runtime, catalog server, observers
   * @param jitAndGc JIT compilers and garbage collector
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record PerRow(double sourceAndWriter, double committer, double otherThreads, double jitAndGc) {
    static final PerRow NONE = new PerRow(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    double total() {
      return sourceAndWriter + committer + otherThreads + jitAndGc;
    }
  }

  ThreadCpu() {
    sampler = new Thread(this::sampleUntilClosed, "thread-cpu-sampler");
    sampler.setDaemon(true);
    sample();
    sampler.start();
  }

  /**
   * Each group's CPU time per row between the samples nearest {@code fromNanos} and {@code toNanos}
   * ({@link System#nanoTime()}), over {@code rows}; {@link PerRow#NONE} for no rows.
   */
  synchronized PerRow perRow(long fromNanos, long toNanos, long rows) {
    if (rows == 0 || samples.isEmpty()) {
      return PerRow.NONE;
    }
    Sample from = samples.get(0);
    Sample to = samples.get(samples.size() - 1);
    for (Sample s : samples) {
      if (s.nanoTime() <= fromNanos) {
        from = s;
      }
      if (s.nanoTime() >= toNanos && s.nanoTime() < to.nanoTime()) {
        to = s;
      }
    }
    double[] perRow = new double[4];
    for (int group = 0; group < perRow.length; group++) {
      perRow[group] = (to.groupNanos()[group] - from.groupNanos()[group]) / (double) rows;
    }
    return new PerRow(perRow[0], perRow[1], perRow[2], perRow[3]);
  }

  private void sampleUntilClosed() {
    while (running) {
      try {
        Thread.sleep(SAMPLE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      sample();
    }
  }

  private synchronized void sample() {
    long process = os.getProcessCpuTime();
    long now = System.nanoTime();
    long[] ids = threads.getAllThreadIds();
    long[] cpu = threads.getThreadCpuTime(ids);
    List<Long> unnamed = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      if (cpu[i] >= 0) {
        lastCpu.put(ids[i], cpu[i]);
        if (!groupOf.containsKey(ids[i])) {
          unnamed.add(ids[i]);
        }
      }
    }
    for (ThreadInfo info :
        threads.getThreadInfo(unnamed.stream().mapToLong(Long::longValue).toArray(), 0)) {
      if (info != null) {
        groupOf.put(info.getThreadId(), groupOf(info.getThreadName()));
      }
    }
    long[] groups = new long[4];
    long java = 0;
    for (Map.Entry<Long, Long> thread : lastCpu.entrySet()) {
      java += thread.getValue();
      groups[groupOf.getOrDefault(thread.getKey(), OTHER_THREADS)] += thread.getValue();
    }
    groups[JIT_AND_GC] = Math.max(0, process - java);
    samples.add(new Sample(now, groups));
  }

  private static int groupOf(String threadName) {
    if (threadName.startsWith(SOURCE_NAME + " ")
        || threadName.startsWith("Source: " + SOURCE_NAME + " ")) {
      return SOURCE_AND_WRITER;
    }
    return TASK_THREAD.matcher(threadName).matches() ? COMMITTER : OTHER_THREADS;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join(1_000);
  }
}
