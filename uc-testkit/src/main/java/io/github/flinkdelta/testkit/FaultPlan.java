/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Faults the server injects, per endpoint. An endpoint is named by method and path template
 * relative to the API base, e.g. {@code "POST /delta/preview/commits"} or {@code "GET
 * /tables/{full_name}"}.
 *
 * <p>Thread-safe: tests arm faults while the server answers other threads.
 *
 * <p>Besides what is armed, the plan counts what fired: the calls answered with an injected failure
 * or applied with their response dropped, and how many of the armed faults (each {@link #failNext}
 * or {@link #dropResponseOfNext}) hit at least one call. A fault replaced by the next one armed on
 * its endpoint, or removed by {@link #clear()}, before any call reached it never fired.
 */
@PublicEvolving
public final class FaultPlan {

  private final Map<String, Failure> failures = new ConcurrentHashMap<>();
  private final Map<String, Burst> drops = new ConcurrentHashMap<>();
  private final Map<String, Duration> delays = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> failedCalls = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> failuresFired = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> droppedCalls = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> dropsFired = new ConcurrentHashMap<>();

  FaultPlan() {}

  /** The next {@code count} calls of {@code endpoint} fail with {@code status}, unapplied. */
  public FaultPlan failNext(String endpoint, int count, int status) {
    failures.put(endpoint, new Failure(new Burst(count), status));
    return this;
  }

  /**
   * The next {@code count} calls of {@code endpoint} are applied, but the connection is closed
   * without a response: the client cannot tell whether the call took effect.
   */
  public FaultPlan dropResponseOfNext(String endpoint, int count) {
    drops.put(endpoint, new Burst(count));
    return this;
  }

  /** Every call of {@code endpoint} waits {@code delay} before it is handled. */
  public FaultPlan delay(String endpoint, Duration delay) {
    delays.put(endpoint, delay);
    return this;
  }

  /** Removes every armed fault. */
  public FaultPlan clear() {
    failures.clear();
    drops.clear();
    delays.clear();
    return this;
  }

  /** How many calls {@code endpoint} has received, faulty or not. */
  public int calls(String endpoint) {
    AtomicInteger count = calls.get(endpoint);
    return count == null ? 0 : count.get();
  }

  /** How many calls of {@code endpoint} were answered with an injected failure. */
  public int failedCalls(String endpoint) {
    return countOf(failedCalls, endpoint);
  }

  /**
   * How many of the {@link #failNext} faults armed on {@code endpoint} failed at least one call;
   * one replaced or cleared before any call reached it is not counted.
   */
  public int failuresFired(String endpoint) {
    return countOf(failuresFired, endpoint);
  }

  /** How many calls of {@code endpoint} were applied with their response dropped. */
  public int droppedCalls(String endpoint) {
    return countOf(droppedCalls, endpoint);
  }

  /**
   * How many of the {@link #dropResponseOfNext} faults armed on {@code endpoint} dropped at least
   * one response; one replaced or cleared before any call reached it is not counted.
   */
  public int dropsFired(String endpoint) {
    return countOf(dropsFired, endpoint);
  }

  private static int countOf(Map<String, AtomicInteger> counts, String endpoint) {
    AtomicInteger count = counts.get(endpoint);
    return count == null ? 0 : count.get();
  }

  private static void increment(Map<String, AtomicInteger> counts, String endpoint) {
    counts.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
  }

  void recordCall(String endpoint) {
    calls.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
  }

  /** The status to fail this call with, or 0 to handle it. */
  int takeFailure(String endpoint) {
    Failure failure = failures.get(endpoint);
    if (failure == null || !failure.burst().take()) {
      return 0;
    }
    increment(failedCalls, endpoint);
    if (failure.burst().firstHit()) {
      increment(failuresFired, endpoint);
    }
    return failure.status();
  }

  boolean takeDrop(String endpoint) {
    Burst drop = drops.get(endpoint);
    if (drop == null || !drop.take()) {
      return false;
    }
    increment(droppedCalls, endpoint);
    if (drop.firstHit()) {
      increment(dropsFired, endpoint);
    }
    return true;
  }

  Duration delayOf(String endpoint) {
    return delays.getOrDefault(endpoint, Duration.ZERO);
  }

  private record Failure(Burst burst, int status) {}

  /** One armed fault: the calls it still hits, and whether it hit one yet. */
  private static final class Burst {
    private final AtomicInteger remaining;
    private final AtomicBoolean hit = new AtomicBoolean();

    Burst(int count) {
      this.remaining = new AtomicInteger(count);
    }

    /** Whether this call is hit; never goes below zero. */
    boolean take() {
      return remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    /** True exactly once, for the first call hit. */
    boolean firstHit() {
      return hit.compareAndSet(false, true);
    }
  }
}
