package io.github.flinkdelta.it;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
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
 */
public final class S3FaultInterceptor implements ExecutionInterceptor {

  private static final AtomicInteger RESETS = new AtomicInteger();
  private static final AtomicInteger SLOW_DOWNS = new AtomicInteger();
  private static final AtomicInteger INJECTED = new AtomicInteger();
  private static final ExecutionAttribute<Boolean> SLOWED = new ExecutionAttribute<>("chaos-503");

  /** The next {@code count} S3 requests fail before they are sent. */
  static void resetNext(int count) {
    RESETS.set(count);
  }

  /** The next {@code count} S3 requests other than GETs are applied, then answered 503 SlowDown. */
  static void slowDownNext(int count) {
    SLOW_DOWNS.set(count);
  }

  static void clear() {
    RESETS.set(0);
    SLOW_DOWNS.set(0);
  }

  /** Requests faulted so far in this JVM. */
  static int injected() {
    return INJECTED.get();
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attrs) {
    if (RESETS.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      INJECTED.incrementAndGet();
      throw SdkClientException.create(
          "Injected connection reset", new IOException("Connection reset (injected)"));
    }
  }

  @Override
  public SdkHttpResponse modifyHttpResponse(
      Context.ModifyHttpResponse context, ExecutionAttributes attrs) {
    if (context.httpRequest().method() != SdkHttpMethod.GET
        && SLOW_DOWNS.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      INJECTED.incrementAndGet();
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
}
