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
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients of one connection and storage configuration share one session while any is open, and a
 * catalog's commit API is detected once per process: a sink that opens a client per table it finds,
 * creates or commits probes the catalog once, not per table, and the session closes with its last
 * client.
 */
class CatalogSessionTest {

  private static final String PROBE = "GET /delta/v1/config";
  private static final String GET_TABLE = "GET /tables/{full_name}";

  @TempDir Path dir;

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;
  private final Configuration conf = HadoopConfigurations.of(Map.of());

  @BeforeEach
  void start() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).build().start();
    connection =
        new UnityCatalogConnection(
            server.uri(), new UnityCatalogConnection.StaticToken(Secret.of("t")), CommitApi.AUTO);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void clientsOpenedWhileAnotherIsOpenShareItsSessionAndProbeTheCatalogOnce() {
    try (UnityCatalogClient held = new UnityCatalogClient(connection, conf)) {
      for (int i = 0; i < 20; i++) {
        try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
          assertThat(client.find(UnityCatalogTableName.parse("main.default.absent"))).isEmpty();
          assertThat(client.commitApi()).isEqualTo(CommitApi.DELTA_V1);
        }
      }
      assertThat(held.commitApi()).isEqualTo(CommitApi.DELTA_V1);
    }
    assertThat(server.faults().calls(GET_TABLE)).isEqualTo(20);
    assertThat(server.faults().calls(PROBE)).isEqualTo(1);
  }

  @Test
  void theLastClientToCloseClosesTheSessionAndTheNextOpensAnotherWithoutProbingAgain() {
    int before = CatalogSession.openSessions();
    UnityCatalogClient first = new UnityCatalogClient(connection, conf);
    UnityCatalogClient second = new UnityCatalogClient(connection, conf);
    assertThat(CatalogSession.openSessions()).isEqualTo(before + 1);
    first.close();
    first.close();
    assertThat(CatalogSession.openSessions()).isEqualTo(before + 1);
    second.close();
    assertThat(CatalogSession.openSessions()).isEqualTo(before);

    try (UnityCatalogClient again = new UnityCatalogClient(connection, conf)) {
      assertThat(again.find(UnityCatalogTableName.parse("main.default.absent"))).isEmpty();
    }
    assertThat(server.faults().calls(PROBE)).isEqualTo(1);
    assertThat(CatalogSession.openSessions()).isEqualTo(before);
  }

  @Test
  void clientsOfAnotherStorageConfigurationHaveASessionOfTheirOwn() {
    int before = CatalogSession.openSessions();
    try (UnityCatalogClient one = new UnityCatalogClient(connection, conf);
        UnityCatalogClient other =
            new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()))) {
      assertThat(one.commitApi()).isEqualTo(other.commitApi());
      assertThat(CatalogSession.openSessions()).isEqualTo(before + 2);
    }
    assertThat(server.faults().calls(PROBE)).isEqualTo(1);
  }

  @Test
  void aConnectionLeftToDetectionSharesTheSessionOfTheConnectionNamingTheDetectedApi() {
    int before = CatalogSession.openSessions();
    UnityCatalogConnection named = connection.withCommitApi(CommitApi.DELTA_V1);
    try (UnityCatalogClient detecting = new UnityCatalogClient(connection, conf);
        UnityCatalogClient naming = new UnityCatalogClient(named, conf)) {
      assertThat(detecting.commitApi()).isEqualTo(naming.commitApi());
      assertThat(CatalogSession.openSessions()).isEqualTo(before + 1);
    }
  }
}
