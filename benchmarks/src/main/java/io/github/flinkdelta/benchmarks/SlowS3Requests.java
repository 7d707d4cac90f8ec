/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * S3 that answers slowly: inside the AWS SDK that S3A uses (installed with {@code
 * fs.s3a.audit.execution.interceptors}), every request waits a set time before it leaves, as when a
 * bucket is far away or throttled. The delay is static: S3A makes the instances, in the job's JVM.
 */
public final class SlowS3Requests implements ExecutionInterceptor {

  private static volatile long delayMillis;
  private static final AtomicLong DELAYED = new AtomicLong();

  /** Every request from now on waits {@code millis} before it is sent; 0 for none. */
  static void delay(long millis) {
    delayMillis = millis;
  }

  /** Requests delayed so far. */
  static long delayed() {
    return DELAYED.get();
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
    long millis = delayMillis;
    if (millis <= 0) {
      return;
    }
    DELAYED.incrementAndGet();
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
