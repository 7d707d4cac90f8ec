/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Storage faults on the S3 protocol, injected inside the AWS SDK that S3A uses (installed with
 * {@code fs.s3a.audit.execution.interceptors}): the next requests either fail before they leave (a
 * connection reset: not applied) or are answered {@code 503 SlowDown} after s3proxy applied them
 * (throttling, or a lost response). S3A and the SDK retry both; a burst longer than their retries
 * fails the operation, and with it the task.
 *
 * <p>GET responses are never turned into 503s: the SDK streams a GET's body without looking again
 * at a status changed here, so S3A would read the error text as the object's first bytes and the
 * rest from a reopened stream. S3 cannot answer that way, and a publish that copies a commit file
 * would persist the mix (a chaos run once did).
 *
 * <p>Besides the requests it faulted, the interceptor counts the bursts that fired: each {@link
 * #resetNext} or {@link #slowDownNext} arms one burst, replacing the one armed before; a burst
 * counts as fired when it faults its first request, so one replaced or cleared before any request
 * reached it is not counted. S3A instantiates the interceptor by class name, in the MiniCluster's
 * JVM, which is the test's: the counts are static, and {@link #resetCounts} zeroes them.
 */
public final class S3FaultInterceptor implements ExecutionInterceptor {

  private static final Burst NONE = new Burst(0);
  private static final AtomicReference<Burst> RESETS = new AtomicReference<>(NONE);
  private static final AtomicReference<Burst> SLOW_DOWNS = new AtomicReference<>(NONE);
  private static final AtomicInteger INJECTED = new AtomicInteger();
  private static final AtomicInteger RESETS_FIRED = new AtomicInteger();
  private static final AtomicInteger SLOW_DOWNS_FIRED = new AtomicInteger();
  private static final ExecutionAttribute<Boolean> SLOWED = new ExecutionAttribute<>("chaos-503");

  /** The next {@code count} S3 requests fail before they are sent. */
  public static void resetNext(int count) {
    RESETS.set(new Burst(count));
  }

  /** The next {@code count} S3 requests other than GETs are applied, then answered 503 SlowDown. */
  public static void slowDownNext(int count) {
    SLOW_DOWNS.set(new Burst(count));
  }

  /** Disarms both bursts; what they fired stays counted. */
  public static void clear() {
    RESETS.set(NONE);
    SLOW_DOWNS.set(NONE);
  }

  /** Zeroes the counts of requests faulted and bursts fired. */
  public static void resetCounts() {
    INJECTED.set(0);
    RESETS_FIRED.set(0);
    SLOW_DOWNS_FIRED.set(0);
  }

  /** Requests faulted since the counts were last reset. */
  public static int injected() {
    return INJECTED.get();
  }

  /** {@link #resetNext} bursts that reset at least one request. */
  public static int resetsFired() {
    return RESETS_FIRED.get();
  }

  /** {@link #slowDownNext} bursts that answered at least one request 503. */
  public static int slowDownsFired() {
    return SLOW_DOWNS_FIRED.get();
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attrs) {
    if (RESETS.get().take(RESETS_FIRED)) {
      throw SdkClientException.create(
          "Injected connection reset", new IOException("Connection reset (injected)"));
    }
  }

  @Override
  public SdkHttpResponse modifyHttpResponse(
      Context.ModifyHttpResponse context, ExecutionAttributes attrs) {
    if (context.httpRequest().method() != SdkHttpMethod.GET
        && SLOW_DOWNS.get().take(SLOW_DOWNS_FIRED)) {
      attrs.putAttribute(SLOWED, true);
      return context.httpResponse().toBuilder().statusCode(503).statusText("Slow Down").build();
    }
    return context.httpResponse();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attrs) {
    if (Boolean.TRUE.equals(attrs.getAttribute(SLOWED))) {
      String error =
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
              + "<Message>Please reduce your request rate (injected).</Message></Error>";
      return Optional.of(new ByteArrayInputStream(error.getBytes(StandardCharsets.UTF_8)));
    }
    return context.responseBody();
  }

  /** One armed burst: the requests it still faults, and whether it faulted one yet. */
  private static final class Burst {
    private final AtomicInteger remaining;
    private final AtomicBoolean fired = new AtomicBoolean();

    Burst(int count) {
      this.remaining = new AtomicInteger(count);
    }

    /**
     * Whether this request is faulted; counts it, and the burst in {@code fired} the first time.
     */
    boolean take(AtomicInteger firedBursts) {
      if (remaining.getAndUpdate(n -> Math.max(0, n - 1)) <= 0) {
        return false;
      }
      INJECTED.incrementAndGet();
      if (fired.compareAndSet(false, true)) {
        firedBursts.incrementAndGet();
      }
      return true;
    }
  }
}
