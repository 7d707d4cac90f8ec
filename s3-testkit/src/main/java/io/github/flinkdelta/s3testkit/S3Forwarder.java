/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * Sends an accepted request on to s3proxy and its answer back: the same method, path, query and
 * headers, less what only the signature needed (s3proxy runs without authorization) and what the
 * HTTP layers set for themselves; the body as the object's bytes.
 */
final class S3Forwarder {

  /** Headers not passed on: hop-by-hop, set by the HTTP client, or about the signature. */
  private static final Set<String> REQUEST_DROPPED =
      Set.of(
          "host",
          "connection",
          "keep-alive",
          "content-length",
          "transfer-encoding",
          "te",
          "expect",
          "upgrade",
          "authorization",
          "x-amz-security-token",
          "x-amz-content-sha256",
          "x-amz-decoded-content-length",
          "x-amz-trailer",
          "x-amz-sdk-checksum-algorithm");

  private static final Set<String> RESPONSE_DROPPED =
      Set.of("connection", "keep-alive", "content-length", "transfer-encoding", "date");

  private final URI upstream;
  private final HttpClient client;

  S3Forwarder(URI upstream) {
    this.upstream = upstream;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .sslContext(plainHttpOnly())
            .build();
  }

  /**
   * A TLS context that trusts nothing, for an upstream that is plain HTTP: without one, the JDK's
   * client builds the default context at once and fails in a JVM whose default trust store is
   * broken (as a test may set up for its own TLS server).
   */
  private static SSLContext plainHttpOnly() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[0], new TrustManager[0], null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("This JVM has no TLS", e);
    }
  }

  void forward(HttpExchange exchange, byte[] content) throws IOException {
    String method = exchange.getRequestMethod();
    URI uri = exchange.getRequestURI();
    String query = withoutSignature(uri.getRawQuery());
    URI target = URI.create(upstream + uri.getRawPath() + (query.isEmpty() ? "" : "?" + query));
    HttpRequest.BodyPublisher body =
        content.length == 0 && !method.equals("PUT") && !method.equals("POST")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(content);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target).timeout(Duration.ofMinutes(2)).method(method, body);
    for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      // The proxy checked the checksums (s3proxy refuses some, e.g. on a GET) and the signature.
      if (REQUEST_DROPPED.contains(name) || name.startsWith("x-amz-checksum-")) {
        continue;
      }
      for (String value : header.getValue()) {
        if (name.equals("content-encoding")) {
          value = withoutAwsChunked(value);
          if (value.isEmpty()) {
            continue;
          }
        }
        try {
          request.header(name, value);
        } catch (IllegalArgumentException restricted) {
          // A header the JDK's client sets itself; s3proxy does not need ours.
        }
      }
    }
    request.header("x-amz-content-sha256", SigV4.hex(SigV4.sha256(content)));
    HttpResponse<InputStream> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while forwarding to " + upstream);
    }
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              if (!RESPONSE_DROPPED.contains(name.toLowerCase(Locale.ROOT))) {
                exchange.getResponseHeaders().put(name, new ArrayList<>(values));
              }
            });
    long length = response.headers().firstValueAsLong("content-length").orElse(-1);
    int status = response.statusCode();
    try (InputStream in = response.body()) {
      if (method.equals("HEAD") || status == 204 || status == 304) {
        if (method.equals("HEAD") && length >= 0) {
          exchange.getResponseHeaders().set("Content-Length", Long.toString(length));
        }
        exchange.sendResponseHeaders(status, -1);
      } else if (length == 0) {
        exchange.sendResponseHeaders(status, -1);
      } else {
        exchange.sendResponseHeaders(status, Math.max(length, 0));
        try (OutputStream out = exchange.getResponseBody()) {
          in.transferTo(out);
        }
      }
    }
  }

  /** The query as sent, less a presigned URL's {@code X-Amz-*} parameters. */
  private static String withoutSignature(String rawQuery) {
    if (rawQuery == null) {
      return "";
    }
    List<String> kept = new ArrayList<>();
    for (String pair : rawQuery.split("&")) {
      if (!pair.isEmpty() && !pair.toLowerCase(Locale.ROOT).startsWith("x-amz-")) {
        kept.add(pair);
      }
    }
    return String.join("&", kept);
  }

  private static String withoutAwsChunked(String contentEncoding) {
    List<String> kept = new ArrayList<>();
    for (String coding : contentEncoding.split(",")) {
      if (!coding.isBlank() && !coding.trim().equalsIgnoreCase("aws-chunked")) {
        kept.add(coding.trim());
      }
    }
    return String.join(",", kept);
  }
}
