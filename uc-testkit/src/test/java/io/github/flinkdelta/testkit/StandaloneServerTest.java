/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server runs standalone in a process of its own, as the README shows. */
class StandaloneServerTest {

  @TempDir Path dir;

  @Test
  void standaloneServerAnswersOnTheGivenPort() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                UnityCatalogServerMain.class.getName(),
                "--port",
                String.valueOf(port),
                "--storage-root",
                dir.toString())
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      do {
        line = out.readLine();
      } while (line != null && !line.startsWith("Unity Catalog test server:"));
      assertThat(line)
          .isEqualTo(
              "Unity Catalog test server: http://127.0.0.1:" + port + UnityCatalogServer.API_BASE);

      HttpResponse<String> catalogs =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + port
                                  + UnityCatalogServer.API_BASE
                                  + "/catalogs"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(catalogs.statusCode()).isEqualTo(200);
      assertThat(catalogs.body()).contains("\"name\":\"main\"");
    } finally {
      process.destroy();
      assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}
