package io.github.flinkdelta.testkit;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Faults the server injects, per endpoint. An endpoint is named by method and path template
 * relative to the API base, e.g. {@code "POST /delta/preview/commits"} or {@code "GET
 * /tables/{full_name}"}.
 *
 * <p>Thread-safe: tests arm faults while the server answers other threads.
 */
@PublicEvolving
public final class FaultPlan {

  private final Map<String, Failure> failures = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> drops = new ConcurrentHashMap<>();
  private final Map<String, Duration> delays = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

  FaultPlan() {}

  /** The next {@code count} calls of {@code endpoint} fail with {@code status}, unapplied. */
  public FaultPlan failNext(String endpoint, int count, int status) {
    failures.put(endpoint, new Failure(new AtomicInteger(count), status));
    return this;
  }

  /**
   * The next {@code count} calls of {@code endpoint} are applied, but the connection is closed
   * without a response: the client cannot tell whether the call took effect.
   */
  public FaultPlan dropResponseOfNext(String endpoint, int count) {
    drops.put(endpoint, new AtomicInteger(count));
    return this;
  }

  /** Every call of {@code endpoint} waits {@code delay} before it is handled. */
  public FaultPlan delay(String endpoint, Duration delay) {
    delays.put(endpoint, delay);
    return this;
  }

  /** Removes every armed fault. */
  public FaultPlan clear() {
    failures.clear();
    drops.clear();
    delays.clear();
    return this;
  }

  /** How many calls {@code endpoint} has received, faulty or not. */
  public int calls(String endpoint) {
    AtomicInteger count = calls.get(endpoint);
    return count == null ? 0 : count.get();
  }

  void recordCall(String endpoint) {
    calls.computeIfAbsent(endpoint, e -> new AtomicInteger()).incrementAndGet();
  }

  /** The status to fail this call with, or 0 to handle it. */
  int takeFailure(String endpoint) {
    Failure failure = failures.get(endpoint);
    if (failure != null && failure.remaining().getAndDecrement() > 0) {
      return failure.status();
    }
    return 0;
  }

  boolean takeDrop(String endpoint) {
    AtomicInteger remaining = drops.get(endpoint);
    return remaining != null && remaining.getAndDecrement() > 0;
  }

  Duration delayOf(String endpoint) {
    return delays.getOrDefault(endpoint, Duration.ZERO);
  }

  private record Failure(AtomicInteger remaining, int status) {}
}
