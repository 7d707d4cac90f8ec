/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import io.github.flinkdelta.uc.UnityCatalogConnection.OAuthClientCredentials;
import io.github.flinkdelta.uc.UnityCatalogConnection.StaticToken;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The connection builder: what it defaults, what it carries, and what it refuses. */
class UnityCatalogConnectionBuilderTest {

  @Test
  void aTokenConnectionDetectsTheCommitApiWithTheDefaultTimeout() {
    UnityCatalogConnection connection =
        UnityCatalogConnection.builder("https://uc.example.com/api/2.1/unity-catalog/")
            .token(Secret.of("t0ken"))
            .build();

    assertThat(connection.endpoint()).isEqualTo(URI.create("https://uc.example.com"));
    assertThat(connection.auth()).isEqualTo(new StaticToken(Secret.of("t0ken")));
    assertThat(connection.commitApi()).isEqualTo(CommitApi.AUTO);
    assertThat(connection.requestTimeout())
        .isEqualTo(UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT);
  }

  @Test
  void anOAuthConnectionCarriesEverySetting() {
    UnityCatalogConnection connection =
        UnityCatalogConnection.builder("http://localhost:8080")
            .oauth("https://idp.example.com/token", "flink-job", Secret.of("s3cr3t"), "all-apis")
            .commitApi(CommitApi.DELTA_V1)
            .requestTimeout(Duration.ofSeconds(5))
            .build();

    assertThat(connection.auth())
        .isEqualTo(
            new OAuthClientCredentials(
                URI.create("https://idp.example.com/token"),
                "flink-job",
                Secret.of("s3cr3t"),
                "all-apis"));
    assertThat(connection.commitApi()).isEqualTo(CommitApi.DELTA_V1);
    assertThat(connection.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aConnectionWithoutAWayToAuthenticateIsRefusedNamingTheServer() {
    assertThatThrownBy(() -> UnityCatalogConnection.builder("http://localhost:8080").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("http://localhost:8080")
        .hasMessageContaining("token(...) or oauth(...)");
  }
}
