/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.Internal;

/** How an operator stops the thread it runs background work on when it closes. */
@Internal
public final class BackgroundThreads {

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
