/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits out a short catalog outage for the calls a task makes when it starts (the table's storage
 * credentials, its snapshot), so that a catalog restarting for a few seconds does not spend the
 * job's restart attempts: an unreachable server, a timeout, HTTP 429 or 5xx is retried with
 * doubling pauses for up to {@link #PATIENCE}; any other failure, and the last one, is thrown.
 */
final class CatalogOutages {

  private static final Logger LOG = LoggerFactory.getLogger(CatalogOutages.class);

  /** How long a starting task waits for the catalog before it fails. */
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private static final long FIRST_PAUSE_MILLIS = 250;
  private static final long LONGEST_PAUSE_MILLIS = 8_000;
  private static final Pattern TRANSIENT_STATUS = Pattern.compile("\\b(429|50[0-4])\\b");

  private CatalogOutages() {}

  /** {@code call}'s result, retried while the catalog is unavailable, for up to the patience. */
  static <T> T waitOut(UnityCatalogConnection connection, String what, Supplier<T> call) {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      try {
        return call.get();
      } catch (RuntimeException e) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (!isTransient(e) || left <= 0) {
          throw e;
        }
        long sleep = Math.min(pause, left);
        LOG.warn(
            "Unity Catalog at {} is unavailable to {} ({}); retrying in {} ms, for up to {} s more",
            connection.endpoint(),
            what,
            rootMessage(e),
            sleep,
            left / 1000);
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          e.addSuppressed(interrupted);
          throw e;
        }
        pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
      }
    }
  }

  /** Whether {@code failure} says the server was unreachable or briefly unable to answer. */
  static boolean isTransient(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof HttpTimeoutException
          || t instanceof SocketTimeoutException) {
        return true;
      }
      if (t instanceof ApiException api && api.getCode() != 0) {
        return api.getCode() == 429 || api.getCode() >= 500;
      }
      String message = t.getMessage();
      if (message != null && message.contains("HTTP") && TRANSIENT_STATUS.matcher(message).find()) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }
}
