/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogConnection.OAuthClientCredentials;
import java.time.Duration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** OAuth machine-to-machine authentication, with tokens renewed while the job runs. */
class UnityCatalogOAuthITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String CLIENT_SECRET = "m2m-secret-value";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(
          uc -> uc.oauthClient("flink-job", CLIENT_SECRET, Duration.ofSeconds(32)));

  @Test
  void jobAuthenticatesWithClientCredentialsAndRenewsTokens() throws Exception {
    // Tokens live 32 s and are renewed 30 s before they expire: every ~2 s during the job.
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection =
        new UnityCatalogConnection(
            server.uri(),
            new OAuthClientCredentials(
                server.oauthTokenUri(), "flink-job", Secret.of(CLIENT_SECRET), "all-apis"));
    long count = 3_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, count, 600, 3)
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection)
                .tableName("main.default.oauth")
                .rowType(TestRows.TYPE)
                .build());
    env.execute("oauth");

    assertThat(CatalogReads.rows(connection, "main.default.oauth"))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(count, 3));
    assertThat(server.oauthTokensIssued()).isGreaterThan(2);
    assertThat(connection.toString()).doesNotContain(CLIENT_SECRET);

    UnityCatalogConnection wrongSecret =
        new UnityCatalogConnection(
            server.uri(),
            new OAuthClientCredentials(
                server.oauthTokenUri(), "flink-job", Secret.of("not-the-secret"), "all-apis"));
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .unityCatalog(wrongSecret)
                    .tableName("main.default.oauth")
                    .rowType(TestRows.TYPE)
                    .build())
        .hasMessageContaining("OAuth")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-secret"));
  }
}
