/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import io.github.flinkdelta.uc.UnityCatalogConnection.OAuthClientCredentials;
import io.github.flinkdelta.uc.UnityCatalogConnection.StaticToken;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.Test;

/** The one reader of the Unity Catalog connection options, and the masking of their secrets. */
class UnityCatalogOptionsTest {

  @Test
  void secretOptionsAreSensitive() {
    assertThat(GlobalConfiguration.isSensitive(UnityCatalogOptions.TOKEN.key())).isTrue();
    assertThat(GlobalConfiguration.isSensitive(UnityCatalogOptions.OAUTH_CLIENT_SECRET.key()))
        .isTrue();
    assertThat(GlobalConfiguration.isSensitive(HadoopOptions.PREFIX + "fs.s3a.secret.key"))
        .isTrue();
    assertThat(GlobalConfiguration.isSensitive(UnityCatalogOptions.URI.key())).isFalse();
    assertThat(GlobalConfiguration.isSensitive(UnityCatalogOptions.COMMIT_API.key())).isFalse();
  }

  @Test
  void aStaticTokenConnectionCarriesEverySetting() {
    UnityCatalogConnection connection =
        UnityCatalogOptions.connection(
            options(
                Map.of(
                    "uc.uri", "https://uc.example.com",
                    "uc.token", "t0k3n",
                    "uc.commit-api", "LEGACY",
                    "uc.request-timeout", "7 s")),
            "Table t");

    assertThat(connection)
        .isEqualTo(
            new UnityCatalogConnection(
                URI.create("https://uc.example.com"),
                new StaticToken(Secret.of("t0k3n")),
                CommitApi.LEGACY,
                Duration.ofSeconds(7)));
    assertThat(connection.toString()).doesNotContain("t0k3n");
  }

  @Test
  void oauthClientCredentialsNeedAllThreeKeys() {
    UnityCatalogConnection connection =
        UnityCatalogOptions.connection(
            options(
                Map.of(
                    "uc.uri", "https://uc.example.com",
                    "uc.oauth.token-uri", "https://idp.example.com/token",
                    "uc.oauth.client-id", "job",
                    "uc.oauth.client-secret", "s3cr3t",
                    "uc.oauth.scope", "all-apis")),
            "Catalog uc");
    assertThat(connection.auth())
        .isEqualTo(
            new OAuthClientCredentials(
                URI.create("https://idp.example.com/token"),
                "job",
                Secret.of("s3cr3t"),
                "all-apis"));
    assertThat(connection.commitApi()).isEqualTo(CommitApi.AUTO);
    assertThat(connection.requestTimeout())
        .isEqualTo(UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT);

    assertThatThrownBy(
            () ->
                UnityCatalogOptions.connection(
                    options(Map.of("uc.uri", "http://uc", "uc.oauth.client-id", "job")),
                    "Catalog uc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Catalog uc needs all of 'uc.oauth.token-uri', 'uc.oauth.client-id' and"
                + " 'uc.oauth.client-secret' for OAuth.");
  }

  @Test
  void aTokenAndOauthTogetherAndAMissingUriAreRefusedNamingTheKeys() {
    assertThatThrownBy(
            () ->
                UnityCatalogOptions.connection(
                    options(
                        Map.of(
                            "uc.uri", "http://uc",
                            "uc.token", "t",
                            "uc.oauth.token-uri", "http://idp/token")),
                    "Table t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table t sets both 'uc.token' and OAuth options; authenticate with one of them.");
    assertThatThrownBy(
            () -> UnityCatalogOptions.connection(options(Map.of("uc.token", "t")), "Table t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Table t needs 'uc.uri'.");
  }

  private static Configuration options(Map<String, String> values) {
    return Configuration.fromMap(values);
  }
}
