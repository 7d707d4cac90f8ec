/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Holds a generator's readers after some rows each until the test opens the gate. A held reader
 * only waits for its availability future, so checkpoints go on and commit the rows that passed, and
 * nothing else reaches the sink until {@link #open()}: the test changes the table at a point it
 * chose, without timing.
 *
 * <p>The gate lives as long as the current test of its {@link SharedObjectsExtension}, like {@link
 * FaultCounter}.
 */
public final class SourceGate implements Serializable {

  private static final long serialVersionUID = 1L;

  private final SharedReference<CompletableFuture<Void>> opened;
  private final SharedReference<AtomicInteger> waiting;
  private final SharedReference<AtomicLong> emitted;

  private SourceGate(SharedObjectsExtension shared) {
    this.opened = shared.add(new CompletableFuture<>());
    this.waiting = shared.add(new AtomicInteger());
    this.emitted = shared.add(new AtomicLong());
  }

  /** A closed gate. */
  public static SourceGate in(SharedObjectsExtension shared) {
    return new SourceGate(shared);
  }

  /**
   * A rate limiter for a generator: each reader lets at most {@code rowsPerReader} rows through (it
   * counts permits, and a reader may take one before it has a split), then waits for the gate.
   */
  @SuppressWarnings("rawtypes")
  public RateLimiterStrategy after(long rowsPerReader) {
    return new Strategy(this, rowsPerReader);
  }

  /** The generator's function: row number {@code i} is {@code i}, counted in {@link #emitted}. */
  public GeneratorFunction<Long, Long> countedIndexes() {
    return i -> {
      emitted.get().incrementAndGet();
      return i;
    };
  }

  /** Lets every reader go on, now and in later attempts. */
  public void open() {
    opened.get().complete(null);
  }

  /** How many readers are waiting at the gate. */
  public int waiting() {
    return waiting.get().get();
  }

  /**
   * The rows the generator emitted so far. Once every reader is {@link #waiting}, this is the
   * number of rows that passed before the gate.
   */
  public long emitted() {
    return emitted.get().get();
  }

  @SuppressWarnings("rawtypes")
  private record Strategy(SourceGate gate, long rowsPerReader) implements RateLimiterStrategy {
    @Override
    public RateLimiter createRateLimiter(int parallelism) {
      return new Limiter(gate, rowsPerReader);
    }
  }

  @SuppressWarnings("rawtypes")
  private static final class Limiter implements RateLimiter {
    private final SourceGate gate;
    private final long rowsPerReader;
    private long granted;
    private boolean held;

    Limiter(SourceGate gate, long rowsPerReader) {
      this.gate = gate;
      this.rowsPerReader = rowsPerReader;
    }

    // Flink 2.2 and later call acquire(int); earlier lines call acquire().
    public CompletionStage<Void> acquire(int permits) {
      return acquire();
    }

    @Override
    public CompletionStage<Void> acquire() {
      CompletableFuture<Void> opened = gate.opened.get();
      if (granted < rowsPerReader || opened.isDone()) {
        granted++;
        return CompletableFuture.completedFuture(null);
      }
      if (!held) {
        held = true;
        gate.waiting.get().incrementAndGet();
      }
      return opened;
    }
  }
}
