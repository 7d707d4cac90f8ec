/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which commit API {@code AUTO} picks. The test server answers the probe as Unity Catalog OSS 0.6.0
 * does: a configuration request without {@code protocol-versions} is a 400 for any catalog, and an
 * unknown catalog with it is a 404 with the Delta API's error body.
 */
class CommitApiProbeTest {

  private static final String CONFIG = "GET /delta/v1/config";

  @TempDir Path dir;

  private UnityCatalogServer server;

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void autoPicksTheDeltaApiOfAServerThatRequiresProtocolVersions() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    // The probe without protocol-versions, as the connector used to send it, is refused.
    HttpResponse<String> bare =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.uri()
                                + UnityCatalogServer.API_BASE
                                + "/delta/v1/config?catalog=_probe"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(bare.statusCode()).isEqualTo(400);

    assertThat(detected()).isEqualTo(CommitApi.DELTA_V1);
    assertThat(server.faults().calls(CONFIG)).isEqualTo(2);
  }

  @Test
  void autoPicksTheLegacyApiOfAServerWithoutTheDeltaApi() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).deltaApi(false).build().start();
    assertThat(detected()).isEqualTo(CommitApi.LEGACY);
  }

  @Test
  void anExplicitChoiceSendsNoProbe() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    for (CommitApi api : new CommitApi[] {CommitApi.LEGACY, CommitApi.DELTA_V1}) {
      try (UnityCatalogClient client = new UnityCatalogClient(connection(api), conf())) {
        assertThat(client.commitApi()).isEqualTo(api);
      }
    }
    assertThat(server.faults().calls(CONFIG)).isZero();
  }

  private CommitApi detected() {
    try (UnityCatalogClient client = new UnityCatalogClient(connection(CommitApi.AUTO), conf())) {
      return client.commitApi();
    }
  }

  private UnityCatalogConnection connection(CommitApi api) {
    return new UnityCatalogConnection(
        server.uri(), new UnityCatalogConnection.StaticToken(Secret.of("t")), api);
  }

  private static org.apache.hadoop.conf.Configuration conf() {
    return HadoopConfigurations.of(Map.of());
  }
}
