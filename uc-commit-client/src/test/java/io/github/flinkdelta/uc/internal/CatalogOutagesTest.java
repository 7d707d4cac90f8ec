/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Which catalog failures a starting task waits out, and that it stops at the first other one. */
class CatalogOutagesTest {

  private static final UnityCatalogConnection CONNECTION =
      new UnityCatalogConnection(URI.create("http://127.0.0.1:1"), Secret.of(""));

  @Test
  void unreachableServersTimeoutsAndServerErrorsAreTransient() {
    assertThat(CatalogOutages.isTransient(new IllegalStateException(new ConnectException())))
        .isTrue();
    assertThat(CatalogOutages.isTransient(new RuntimeException(new ApiException(503, "down"))))
        .isTrue();
    assertThat(CatalogOutages.isTransient(new ApiException(429, "slow down"))).isTrue();
    assertThat(
            CatalogOutages.isTransient(
                new RuntimeException(new IOException("Request failed with HTTP 502: bad gateway"))))
        .isTrue();
  }

  @Test
  void refusalsAndMissingTablesAreNot() {
    assertThat(CatalogOutages.isTransient(new RuntimeException(new ApiException(403, "no"))))
        .isFalse();
    assertThat(CatalogOutages.isTransient(new ApiException(404, "no such table"))).isFalse();
    assertThat(CatalogOutages.isTransient(new IllegalArgumentException("bad schema"))).isFalse();
  }

  @Test
  void aTransientFailureIsRetriedUntilTheCallSucceeds() {
    AtomicInteger calls = new AtomicInteger();
    String answer =
        CatalogOutages.waitOut(
            CONNECTION,
            "answer",
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException(new ConnectException("Connection refused"));
              }
              return "up";
            });

    assertThat(answer).isEqualTo("up");
    assertThat(calls).hasValue(3);
  }

  @Test
  void anyOtherFailureIsThrownAtOnce() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                CatalogOutages.waitOut(
                    CONNECTION,
                    "answer",
                    () -> {
                      calls.incrementAndGet();
                      throw new IllegalStateException(new ApiException(401, "bad token"));
                    }))
        .hasRootCauseMessage("bad token");
    assertThat(calls).hasValue(1);
  }
}
