/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap one writer's open files and held rows take, counted against a limit. Each holder of
 * memory owns a {@link Share} and reports its size through it; the budget keeps the sum.
 *
 * <p>One writer thread owns a budget; {@link #usedBytes()} may also be read from others (a metric
 * reporter), which see a recent value.
 */
final class MemoryBudget {

  private final long limitBytes;

  /** Written only by the owner, with release semantics: a plain store on x86, not a fence. */
  private final AtomicLong usedBytes = new AtomicLong();

  MemoryBudget(long limitBytes) {
    if (limitBytes <= 0) {
      throw new IllegalArgumentException("a memory budget must be positive, got " + limitBytes);
    }
    this.limitBytes = limitBytes;
  }

  /** A new share of this budget, holding nothing yet. */
  Share share() {
    return new Share();
  }

  /** The bytes all shares hold together; safe to read from any thread. */
  long usedBytes() {
    return usedBytes.get();
  }

  boolean exceeded() {
    return usedBytes.getPlain() > limitBytes;
  }

  /**
   * What shrinking aims for once the budget is exceeded: nine tenths of the limit, so that a full
   * budget is not paid for with one shrink per row.
   */
  boolean shrunkEnough() {
    return usedBytes.getPlain() <= limitBytes / 10 * 9;
  }

  /** One holder's part of the budget. */
  final class Share {
    private long bytes;

    private Share() {}

    long bytes() {
      return bytes;
    }

    /** The holder now takes {@code newBytes}. */
    void resize(long newBytes) {
      usedBytes.lazySet(usedBytes.getPlain() + newBytes - bytes);
      bytes = newBytes;
    }

    /** The holder takes {@code more} bytes beyond what it took. */
    void grow(long more) {
      resize(bytes + more);
    }

    /** The holder is gone; its bytes return to the budget. */
    void release() {
      resize(0);
    }
  }
}
