/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Holds a generator of parallelism 1 before its element {@code at} until the test opens the gate,
 * in every attempt: the generator function records the index it generated last, which a restored
 * reader resumes from, and the rate limiter waits before the element at the gate. A held reader
 * only waits for its availability future, so checkpoints go on and commit everything before the
 * gate; the test acts once the tables show it, without timing. Unlike {@link SourceGate}, which
 * counts the rows of one attempt, the gate stays at its element when a failure before it restores
 * the reader from a checkpoint. (A reader restored while it is held lets one element through: it
 * learns its position from the first element it generates.)
 *
 * <p>The gate lives as long as the current test of its {@link SharedObjectsExtension}.
 */
public final class IndexGate implements Serializable {

  private static final long serialVersionUID = 1L;

  private final long at;
  private final SharedReference<CompletableFuture<Void>> opened;
  private final SharedReference<AtomicLong> last;

  private IndexGate(SharedObjectsExtension shared, long at) {
    this.at = at;
    this.opened = shared.add(new CompletableFuture<>());
    this.last = shared.add(new AtomicLong(-1));
  }

  /** A closed gate before element {@code at}. */
  public static IndexGate before(SharedObjectsExtension shared, long at) {
    return new IndexGate(shared, at);
  }

  /** The generator's function: element {@code i} is {@code i}, recorded as the last generated. */
  public GeneratorFunction<Long, Long> indexes() {
    return i -> {
      last.get().set(i);
      return i;
    };
  }

  /** The generator's rate limiter, which holds it before element {@code at}. */
  @SuppressWarnings("rawtypes")
  public RateLimiterStrategy limiter() {
    return new Strategy(this, 0);
  }

  /** As {@link #limiter()}, at most {@code perSecond} elements a second before the gate. */
  @SuppressWarnings("rawtypes")
  public RateLimiterStrategy limiter(double perSecond) {
    return new Strategy(this, perSecond);
  }

  /** Whether the generator has reached the gate while it is closed. */
  public boolean holds() {
    return last.get().get() + 1 >= at && !opened.get().isDone();
  }

  /** Lets the generator on, now and in later attempts. */
  public void open() {
    opened.get().complete(null);
  }

  /**
   * @param perSecond the pace before the gate; 0 for none
   */
  @SuppressWarnings("rawtypes")
  private record Strategy(IndexGate gate, double perSecond) implements RateLimiterStrategy {
    @Override
    public RateLimiter createRateLimiter(int parallelism) {
      // A new attempt's reader generates from its restored position on; until it has, the last
      // index of the attempt before does not hold it.
      gate.last.get().set(-1);
      return new Limiter(
          gate,
          perSecond > 0
              ? RateLimiterStrategy.perSecond(perSecond).createRateLimiter(parallelism)
              : null);
    }
  }

  @SuppressWarnings("rawtypes")
  private record Limiter(IndexGate gate, RateLimiter pace) implements RateLimiter {

    // Flink 2.2 and later call acquire(int); earlier lines call acquire().
    public CompletionStage<Void> acquire(int permits) {
      return acquire();
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletionStage<Void> acquire() {
      CompletableFuture<Void> opened = gate.opened.get();
      if (opened.isDone() || gate.last.get().get() + 1 < gate.at) {
        return pace == null
            ? CompletableFuture.completedFuture(null)
            : (CompletionStage<Void>) pace.acquire();
      }
      return opened;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (pace != null) {
        pace.notifyCheckpointComplete(checkpointId);
      }
    }
  }
}
