/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Makes the S3 credentials both catalog APIs vend: one fixed key pair ({@link
 * UnityCatalogServer.S3Credentials}), or a new key, secret and session token for every request,
 * each told to a listener before the answer leaves, so that a storage endpoint can enforce it.
 */
final class S3CredentialVendor {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final UnityCatalogServer.S3Credentials fixed;
  private final Duration distinctLifetime;
  private final Consumer<VendedS3Credential> listener;
  private final Clock clock;
  private final AtomicInteger vended = new AtomicInteger();

  S3CredentialVendor(
      UnityCatalogServer.S3Credentials fixed,
      Duration distinctLifetime,
      Consumer<VendedS3Credential> listener,
      Clock clock) {
    this.fixed = fixed;
    this.distinctLifetime = distinctLifetime;
    this.listener = listener;
    this.clock = clock;
  }

  /** Whether the server has S3 credentials to vend at all. */
  boolean configured() {
    return fixed != null || distinctLifetime != null;
  }

  /** A credential for {@code location}, announced to the listener; needs {@link #configured}. */
  VendedS3Credential vend(String location) {
    int number = vended.incrementAndGet();
    VendedS3Credential credential;
    if (distinctLifetime != null) {
      credential =
          new VendedS3Credential(
              String.format("ASIAUCTK%06d%s", number, random(3).toUpperCase()),
              Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(30)),
              "uc-testkit-session-" + random(16),
              clock.instant().plus(distinctLifetime),
              location);
    } else {
      credential =
          new VendedS3Credential(
              fixed.accessKeyId(),
              fixed.secretAccessKey(),
              fixed.sessionToken(),
              clock.instant().plus(fixed.lifetime()),
              location);
    }
    if (listener != null) {
      listener.accept(credential);
    }
    return credential;
  }

  /** How many credentials were vended. */
  int vendedCount() {
    return vended.get();
  }

  private static String random(int bytes) {
    return HexFormat.of().formatHex(bytes(bytes));
  }

  private static byte[] bytes(int count) {
    byte[] bytes = new byte[count];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
