/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A wrong 'uc.uri' gets a message naming the URI and the likely fix. */
class ConnectionErrorsTest {

  private static final UnityCatalogTableName TABLE =
      new UnityCatalogTableName("main", "default", "events");

  @TempDir Path dir;

  @Test
  void theRestBaseTheServerPrintsIsAcceptedAsTheUri() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      URI pasted = URI.create(server.uri() + UnityCatalogServer.API_BASE + "/");
      UnityCatalogConnection connection = new UnityCatalogConnection(pasted, Secret.of(""));

      assertThat(connection.endpoint().toString())
          .isEqualTo(server.uri().toString().replaceAll("/$", ""));
      try (UnityCatalogClient client = client(connection)) {
        assertThat(client.find(TABLE)).isEmpty();
        assertThat(client.commitApi()).isEqualTo(UnityCatalogConnection.CommitApi.DELTA_V1);
      }
    }
  }

  @Test
  void anHttpServerThatIsNotACatalogIsNotTakenForAMissingTable() throws Exception {
    HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    other.createContext(
        "/",
        exchange -> {
          byte[] page = "<html>Not Found</html>".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(404, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    other.start();
    try {
      URI uri = URI.create("http://127.0.0.1:" + other.getAddress().getPort());
      try (UnityCatalogClient client = client(new UnityCatalogConnection(uri, Secret.of("")))) {
        assertThatThrownBy(() -> client.find(TABLE))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("The server at " + uri + " answered 404 without a Unity Catalog")
            .hasMessageContaining("give the server's base URI");
      }
    } finally {
      other.stop(0);
    }
  }

  @Test
  void aRefusedConnectionSaysNothingAnswersAtTheUri() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    URI uri = URI.create("http://127.0.0.1:" + port);

    assertThatThrownBy(() -> client(new UnityCatalogConnection(uri, Secret.of(""))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Nothing answers at " + uri + " (connection refused)")
        .hasMessageContaining("Check 'uc.uri'");
  }

  @Test
  void aUriThatIsNotAbsoluteIsRefusedWithWhatToGive() {
    assertThatThrownBy(
            () -> new UnityCatalogConnection(URI.create("localhost:8080"), Secret.of("")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'localhost:8080' is not an absolute http(s) URI");
  }

  private static UnityCatalogClient client(UnityCatalogConnection connection) {
    return new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()));
  }
}
