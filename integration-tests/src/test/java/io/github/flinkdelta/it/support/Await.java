/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Waits for a condition while a job runs. The wait has no time budget a slow machine could exceed:
 * it ends when the condition holds, fails at once when the job ended first, and gives up only after
 * {@link #HANG_GUARD}, which no test should come near.
 */
public final class Await {

  public static final Duration HANG_GUARD = Duration.ofMinutes(5);

  private Await() {}

  public static void until(JobClient job, String what, BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + HANG_GUARD.toNanos();
    while (!condition.getAsBoolean()) {
      JobStatus status = job.getJobStatus().get(1, TimeUnit.MINUTES);
      if (status.isGloballyTerminalState()) {
        // One last look: the job may have finished right after the condition came true.
        if (condition.getAsBoolean()) {
          return;
        }
        throw new AssertionError(
            "job " + job.getJobID() + " ended (" + status + ") before " + what, failure(job));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still waiting for " + what + " after " + HANG_GUARD);
      }
      Thread.sleep(20);
    }
  }

  private static Throwable failure(JobClient job) {
    try {
      job.getJobExecutionResult().get(1, TimeUnit.MINUTES);
      return null;
    } catch (Exception e) {
      return e;
    }
  }
}
