/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OAuth 2.0 token endpoint for machine-to-machine clients (client credentials grant): checks the
 * client's id and secret sent with HTTP Basic authentication and issues bearer tokens that expire
 * after a set lifetime.
 */
final class OAuthTokens {

  private final String clientId;
  private final String clientSecret;
  private final Duration lifetime;
  private final Clock clock;
  private final Map<String, Long> expiries = new ConcurrentHashMap<>();
  private final AtomicInteger issued = new AtomicInteger();

  OAuthTokens(String clientId, String clientSecret, Duration lifetime, Clock clock) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  /** Answers a token request: status and JSON body. */
  ApiResponse issue(String authorization, String form) {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((clientId + ":" + clientSecret).getBytes(StandardCharsets.UTF_8));
    if (!expected.equals(authorization)) {
      return json(401, "{\"error\":\"invalid_client\"}");
    }
    if (form == null || !form.contains("grant_type=client_credentials")) {
      return json(400, "{\"error\":\"unsupported_grant_type\"}");
    }
    String token = "oauth-" + UUID.randomUUID();
    expiries.put(token, clock.millis() + lifetime.toMillis());
    issued.incrementAndGet();
    return json(
        200,
        "{\"access_token\":\""
            + token
            + "\",\"token_type\":\"Bearer\",\"expires_in\":"
            + lifetime.toSeconds()
            + "}");
  }

  /** Whether {@code token} was issued here and has not expired. */
  boolean valid(String token) {
    Long expiry = expiries.get(token);
    return expiry != null && expiry > clock.millis();
  }

  int issuedCount() {
    return issued.get();
  }

  private static ApiResponse json(int status, String body) {
    return new ApiResponse(status, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }
}
