/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
