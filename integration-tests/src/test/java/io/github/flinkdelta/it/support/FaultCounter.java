/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Counts the faults an injector actually fired. The injector runs in the MiniCluster, in the test's
 * JVM, and holds the counter as a {@link SharedReference}: each test gets fresh counters from its
 * own {@link SharedObjectsExtension}, which forgets them when the test ends, so no count leaks from
 * one test into the next.
 */
public record FaultCounter(SharedReference<AtomicInteger> fired) implements Serializable {

  /** A counter at zero, living as long as the current test of {@code shared}. */
  public static FaultCounter in(SharedObjectsExtension shared) {
    return new FaultCounter(shared.add(new AtomicInteger()));
  }

  /** A fault was injected. */
  public void fire() {
    fired.get().incrementAndGet();
  }

  /** The faults injected so far. */
  public int count() {
    return fired.get().get();
  }
}
