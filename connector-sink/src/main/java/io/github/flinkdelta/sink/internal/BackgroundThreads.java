/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How an operator stops the thread it runs background work on when it closes. */
@Internal
public final class BackgroundThreads {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundThreads.class);

  private BackgroundThreads() {}

  /**
   * Lets the running task of {@code executor} finish for up to two seconds, then interrupts it and
   * waits up to ten seconds more; keeps the caller's interrupt.
   */
  public static void stop(ExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops a thread that many owners share, as {@link #stop}; tasks still queued when it had to be
   * interrupted (their owners' releases among them) then run here, once the thread has ended, so
   * that no owner's release is lost. When the thread does not end, they are left, with a warning: a
   * task stuck on it may still use what they would release.
   */
  public static void stopShared(ExecutorService executor) {
    executor.shutdown();
    List<Runnable> left = List.of();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        left = executor.shutdownNow();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
          LOG.warn(
              "A background task did not stop within 12 s; {} queued tasks are dropped",
              left.size());
          return;
        }
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      return;
    }
    for (Runnable task : left) {
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("A background task queued before closing failed", e);
      }
    }
  }

  /**
   * Ends one owner's background work on {@code executor}, then runs {@code release}: an executor
   * the owner {@code owns} is {@linkplain #stop stopped} and {@code release} runs here; on a shared
   * one, {@code release} queues behind the owner's task in flight (or runs here once the executor
   * has stopped with its operator).
   */
  public static void release(ExecutorService executor, boolean owns, Runnable release) {
    if (owns) {
      stop(executor);
      release.run();
      return;
    }
    try {
      executor.execute(release);
    } catch (RejectedExecutionException e) {
      release.run();
    }
  }
}
