/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An S3 endpoint on loopback that enforces what S3 enforces about temporary credentials, in front
 * of an {@link S3ProxyProcess} that checks nothing ({@link S3ProxyProcess#startWithoutAuthorization
 * started without authorization}). s3proxy knows one fixed key pair and no expiry, so a test
 * against it alone cannot tell a renewed credential from an expired one; this proxy can.
 *
 * <p>Every request must be signed with AWS Signature Version 4 (in its {@code Authorization}
 * header, or as a presigned URL) by a key {@linkplain #register registered} here, typically by the
 * catalog test server each time it vends one. The proxy answers, as S3 does, with an XML error:
 *
 * <ul>
 *   <li>{@code 403 InvalidAccessKeyId} for a key it does not know;
 *   <li>{@code 403 SignatureDoesNotMatch} when the registered secret did not produce the signature
 *       (of the request, or of a chunk of a streaming upload), and {@code 400
 *       XAmzContentSHA256Mismatch} when the body is not the one signed;
 *   <li>{@code 403 InvalidToken} when the key was vended with a session token and the request
 *       carries another or none;
 *   <li>{@code 403 ExpiredToken} when the request arrives at or after the key's expiry (S3's own
 *       error table lists 400 for this code; AWS's common errors and this project's tests use 403,
 *       and S3A fails the operation on either).
 * </ul>
 *
 * Anything else is forwarded to s3proxy, the body decoded from {@code aws-chunked} when it was
 * streamed, and s3proxy's answer is returned as it came.
 *
 * <p><b>Design choice.</b> s3proxy runs with authorization off and this proxy verifies every
 * signature itself with the vended secret, rather than re-signing requests with s3proxy's one key:
 * so a request signed with a wrong or stale secret is refused, as on S3, and a test cannot pass
 * because a forwarding step signed the request for it. The signature checks are written here from
 * the SigV4 rules ({@link SigV4}, {@link AwsChunkedBody}); they are checked against the AWS SDK's
 * signer in this module's tests.
 *
 * <p>Per key the proxy counts requests accepted and refused, and it records every accepted
 * request's arrival, so a test can assert that the connector renewed its credentials in time
 * ({@link #refusedAsExpired()} is 0) and that each key was used only within its lifetime.
 */
public final class CredentialEnforcingProxy implements AutoCloseable {

  private static final Duration MAX_SKEW = Duration.ofMinutes(15);

  private final URI upstream;
  private final Clock clock;
  private final HttpServer server;
  private final ExecutorService executor;
  private final S3Forwarder forwarder;
  private final Map<String, Key> keys = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong refusedUnknownKey = new AtomicLong();
  private final AtomicLong refusedUnsigned = new AtomicLong();
  private final Queue<AcceptedRequest> accepted = new ConcurrentLinkedQueue<>();

  private CredentialEnforcingProxy(URI upstream, Clock clock) throws IOException {
    this.upstream = upstream;
    this.clock = clock;
    this.forwarder = new S3Forwarder(upstream);
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    this.executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "s3-credential-proxy");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a proxy in front of {@code s3}, checking expiry against the system clock. */
  public static CredentialEnforcingProxy start(S3ProxyProcess s3) {
    return start(s3.endpoint(), Clock.systemUTC());
  }

  /**
   * Starts a proxy in front of the S3 endpoint {@code upstream}, checking expiry on {@code clock}.
   */
  public static CredentialEnforcingProxy start(URI upstream, Clock clock) {
    try {
      return new CredentialEnforcingProxy(
          Objects.requireNonNull(upstream, "upstream"), Objects.requireNonNull(clock, "clock"));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the credential proxy for " + upstream, e);
    }
  }

  /** The endpoint to give S3 clients ({@code fs.s3a.endpoint}); use path-style access. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /**
   * Accepts requests signed with this key until {@code expiresAt} (exclusive), and only with this
   * session token (none if {@code sessionToken} is null). Registering a key again replaces it.
   */
  public void register(
      String accessKeyId, String secretKey, String sessionToken, Instant expiresAt) {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretKey, "secretKey");
    Objects.requireNonNull(expiresAt, "expiresAt");
    keys.put(
        accessKeyId,
        new Key(
            accessKeyId,
            secretKey,
            sessionToken,
            clock.instant(),
            expiresAt,
            sequence.incrementAndGet()));
  }

  /** Accepts requests signed with this key pair, without a session token, for good. */
  public void registerPermanent(String accessKeyId, String secretKey) {
    register(accessKeyId, secretKey, null, Instant.MAX);
  }

  /** What the proxy saw of one registered key, or null for a key never registered. */
  public KeyStats stats(String accessKeyId) {
    Key key = keys.get(accessKeyId);
    return key == null ? null : key.stats();
  }

  /** Every registered key's figures, in the order the keys were registered. */
  public List<KeyStats> keys() {
    return keys.values().stream()
        .sorted(Comparator.comparingLong(k -> k.sequence))
        .map(Key::stats)
        .toList();
  }

  /** Requests refused with {@code ExpiredToken}, over all keys. */
  public long refusedAsExpired() {
    return keys.values().stream().mapToLong(k -> k.refusedExpired.get()).sum();
  }

  /** Requests accepted at or after their key's expiry; 0 unless the proxy itself is broken. */
  public long acceptedAfterExpiry() {
    return accepted.stream()
        .filter(r -> !r.at().isBefore(keys.get(r.accessKeyId()).expiresAt))
        .count();
  }

  /** Requests refused because their access key was never registered. */
  public long refusedUnknownKey() {
    return refusedUnknownKey.get();
  }

  /** Requests refused because they carried no usable signature at all. */
  public long refusedUnsigned() {
    return refusedUnsigned.get();
  }

  /** Every request forwarded to S3, in the order they arrived (roughly: threads race). */
  public List<AcceptedRequest> acceptedRequests() {
    return new ArrayList<>(accepted);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  @Override
  public String toString() {
    return "CredentialEnforcingProxy[" + endpoint() + " -> " + upstream + "]";
  }

  private void handle(HttpExchange exchange) throws IOException {
    Instant arrived = clock.instant();
    String method = exchange.getRequestMethod();
    URI uri = exchange.getRequestURI();
    String requestId = Long.toHexString(sequence.incrementAndGet()).toUpperCase();
    try (exchange) {
      try (InputStream in = exchange.getRequestBody()) {
        byte[] body = in.readAllBytes();
        Headers headers = exchange.getRequestHeaders();
        Map<String, String> query = SigV4.decodeQuery(uri.getRawQuery());
        SigV4.Claim claim;
        try {
          claim = SigV4.claim(headers, query);
        } catch (S3Error e) {
          refusedUnsigned.incrementAndGet();
          throw e;
        }
        Key key = keys.get(claim.accessKeyId());
        if (key == null) {
          refusedUnknownKey.incrementAndGet();
          throw new S3Error(
              403,
              "InvalidAccessKeyId",
              "The AWS Access Key Id you provided does not exist in our records.");
        }
        byte[] content;
        try {
          content = check(key, claim, method, uri, headers, body, arrived);
        } catch (S3Error e) {
          (e.code().equals("ExpiredToken") ? key.refusedExpired : key.refusedOther)
              .incrementAndGet();
          throw e;
        }
        key.accepted(arrived);
        accepted.add(new AcceptedRequest(arrived, key.accessKeyId, method, uri.getRawPath()));
        forwarder.forward(exchange, content);
      } catch (S3Error e) {
        answer(exchange, e, requestId);
      } catch (IOException | RuntimeException e) {
        // s3proxy unreachable or the request broken off: an answer if none has started yet.
        if (exchange.getResponseCode() == -1) {
          answer(exchange, new S3Error(500, "InternalError", "Proxy failed: " + e), requestId);
        }
      }
    }
  }

  private static void answer(HttpExchange exchange, S3Error e, String requestId)
      throws IOException {
    byte[] answer = e.body(exchange.getRequestURI().getRawPath(), requestId);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    exchange.getResponseHeaders().set("x-amz-request-id", requestId);
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(e.status(), -1);
    } else {
      exchange.sendResponseHeaders(e.status(), answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    }
  }

  /** The body to store, once the request has proven it was signed in time by {@code key}. */
  private static byte[] check(
      Key key,
      SigV4.Claim claim,
      String method,
      URI uri,
      Headers headers,
      byte[] body,
      Instant arrived)
      throws S3Error {
    String payloadHash =
        claim.presigned() ? SigV4.UNSIGNED_PAYLOAD : headers.getFirst("x-amz-content-sha256");
    if (payloadHash == null) {
      throw new S3Error(
          400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
    }
    if (!SigV4.matches(
        claim, key.secretKey, method, uri.getRawPath(), uri.getRawQuery(), headers, payloadHash)) {
      throw S3Error.signatureMismatch("check your key and signing method.");
    }
    Instant signedAt = claim.signedAt();
    if (claim.presigned()) {
      if (arrived.isAfter(signedAt.plusSeconds(claim.presignedSeconds()))) {
        throw S3Error.accessDenied("Request has expired");
      }
    } else if (Duration.between(signedAt, arrived).abs().compareTo(MAX_SKEW) > 0) {
      throw new S3Error(
          403,
          "RequestTimeTooSkewed",
          "The difference between the request time and the current time is too large.");
    }
    if (!Objects.equals(key.sessionToken, claim.sessionToken())) {
      throw new S3Error(
          403, "InvalidToken", "The provided token is malformed or otherwise invalid.");
    }
    if (!arrived.isBefore(key.expiresAt)) {
      throw new S3Error(403, "ExpiredToken", "The provided token has expired.");
    }
    if (AwsChunkedBody.isStreaming(payloadHash)) {
      return AwsChunkedBody.decode(body, payloadHash, claim, key.secretKey);
    }
    if (!payloadHash.equals(SigV4.UNSIGNED_PAYLOAD)
        && !payloadHash.equalsIgnoreCase(SigV4.hex(SigV4.sha256(body)))) {
      throw new S3Error(
          400,
          "XAmzContentSHA256Mismatch",
          "The provided 'x-amz-content-sha256' header does not match what was computed.");
    }
    Map<String, String> fields = new java.util.HashMap<>();
    headers.forEach((name, values) -> fields.put(name.toLowerCase(Locale.ROOT), values.get(0)));
    AwsChunkedBody.checkChecksums(fields, body);
    return body;
  }

  /**
   * One registered key's figures.
   *
   * @param firstAccepted arrival of the first accepted request, null if none was
   * @param lastAccepted arrival of the last accepted request, null if none was
   */
  public record KeyStats(
      String accessKeyId,
      Instant registeredAt,
      Instant expiresAt,
      long accepted,
      long refusedExpired,
      long refusedOther,
      Instant firstAccepted,
      Instant lastAccepted) {}

  /** A request the proxy forwarded: when it arrived, with which key, and what it asked for. */
  public record AcceptedRequest(Instant at, String accessKeyId, String method, String path) {}

  private static final class Key {
    final String accessKeyId;
    final String secretKey;
    final String sessionToken;
    final Instant registeredAt;
    final Instant expiresAt;
    final long sequence;
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong refusedExpired = new AtomicLong();
    final AtomicLong refusedOther = new AtomicLong();
    private Instant firstAccepted;
    private Instant lastAccepted;

    Key(
        String accessKeyId,
        String secretKey,
        String sessionToken,
        Instant registeredAt,
        Instant expiresAt,
        long sequence) {
      this.accessKeyId = accessKeyId;
      this.secretKey = secretKey;
      this.sessionToken = sessionToken;
      this.registeredAt = registeredAt;
      this.expiresAt = expiresAt;
      this.sequence = sequence;
    }

    synchronized void accepted(Instant at) {
      accepted.incrementAndGet();
      if (firstAccepted == null || at.isBefore(firstAccepted)) {
        firstAccepted = at;
      }
      if (lastAccepted == null || at.isAfter(lastAccepted)) {
        lastAccepted = at;
      }
    }

    synchronized KeyStats stats() {
      return new KeyStats(
          accessKeyId,
          registeredAt,
          expiresAt,
          accepted.get(),
          refusedExpired.get(),
          refusedOther.get(),
          firstAccepted,
          lastAccepted);
    }
  }
}
