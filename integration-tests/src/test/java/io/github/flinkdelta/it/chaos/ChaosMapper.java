/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.support.FaultCounter;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Passes rows (or records of any kind) to the writer it is chained with, and throws when armed: the
 * task fails while the writer has files open, mid-file. Armed from the test thread (the MiniCluster
 * runs in its JVM); each failure thrown is counted in {@code fired}, which the test reads.
 */
final class ChaosMapper<T> implements MapFunction<T, T> {

  private static final AtomicInteger ARMED = new AtomicInteger();

  private final FaultCounter fired;

  ChaosMapper(FaultCounter fired) {
    this.fired = fired;
  }

  /** The next row a writer task sees fails it. */
  static void failNextRow() {
    ARMED.incrementAndGet();
  }

  /** Removes the failures armed and not yet thrown. */
  static void disarm() {
    ARMED.set(0);
  }

  @Override
  public T map(T row) {
    if (ARMED.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      fired.fire();
      throw new IllegalStateException("Injected writer failure (chaos)");
    }
    return row;
  }
}
