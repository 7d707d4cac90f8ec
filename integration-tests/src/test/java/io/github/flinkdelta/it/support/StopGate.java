/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Holds a generator of parallelism 1 at each of several points in turn until the test releases that
 * stop: the test acts on the table (another engine's statement, say) at points it chose, with every
 * change before the stop committed once the table shows it, without timing. A held generator only
 * waits for its availability future, so checkpoints go on meanwhile; the next change counts as
 * {@link #passed()} once granted, and changes sent again after a restore do not count twice.
 *
 * <p>The gate lives as long as the current test of its {@link SharedObjectsExtension}.
 */
public final class StopGate implements Serializable {

  private static final long serialVersionUID = 1L;

  private final long[] stops;
  private final SharedReference<List<CompletableFuture<Void>>> released;
  private final SharedReference<AtomicLong> passed;

  private StopGate(SharedObjectsExtension shared, long[] stops) {
    this.stops = stops.clone();
    this.released =
        shared.add(
            java.util.stream.Stream.generate(CompletableFuture<Void>::new)
                .limit(stops.length)
                .toList());
    this.passed = shared.add(new AtomicLong());
  }

  /** A gate that holds the generator before changes {@code stops}, in increasing order. */
  public static StopGate at(SharedObjectsExtension shared, long... stops) {
    for (int i = 1; i < stops.length; i++) {
      if (stops[i] <= stops[i - 1]) {
        throw new IllegalArgumentException("stops out of order");
      }
    }
    return new StopGate(shared, stops);
  }

  /** The change before which stop {@code stop} holds the generator. */
  public long position(int stop) {
    return stops[stop];
  }

  /** Whether the generator waits at stop {@code stop}. */
  public boolean holdsAt(int stop) {
    return passed.get().get() == stops[stop] && !released.get().get(stop).isDone();
  }

  /** Lets the generator on past stop {@code stop}. */
  public void release(int stop) {
    released.get().get(stop).complete(null);
  }

  /** The number of changes granted so far, highest across attempts. */
  public long passed() {
    return passed.get().get();
  }

  /** The generator's pace: at most {@code perSecond} changes a second between the stops. */
  @SuppressWarnings("rawtypes")
  public RateLimiterStrategy pacedAt(double perSecond) {
    return new Strategy(this, perSecond);
  }

  @SuppressWarnings("rawtypes")
  private record Strategy(StopGate gate, double perSecond) implements RateLimiterStrategy {
    @Override
    public RateLimiter createRateLimiter(int parallelism) {
      return new Limiter(
          gate, RateLimiterStrategy.perSecond(perSecond).createRateLimiter(parallelism));
    }
  }

  @SuppressWarnings("rawtypes")
  private static final class Limiter implements RateLimiter {
    private final StopGate gate;
    private final RateLimiter pace;
    private long granted;

    Limiter(StopGate gate, RateLimiter pace) {
      this.gate = gate;
      this.pace = pace;
    }

    // Flink 2.2 and later call acquire(int); earlier lines call acquire().
    public CompletionStage<Void> acquire(int permits) {
      return acquire();
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletionStage<Void> acquire() {
      for (int stop = 0; stop < gate.stops.length; stop++) {
        if (granted == gate.stops[stop]) {
          CompletableFuture<Void> open = gate.released.get().get(stop);
          if (!open.isDone()) {
            gate.passed.get().accumulateAndGet(granted, Math::max);
            return open.thenCompose(ignored -> acquire());
          }
        }
      }
      granted++;
      gate.passed.get().accumulateAndGet(granted, Math::max);
      return (CompletionStage<Void>) pace.acquire();
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      pace.notifyCheckpointComplete(checkpointId);
    }
  }
}
