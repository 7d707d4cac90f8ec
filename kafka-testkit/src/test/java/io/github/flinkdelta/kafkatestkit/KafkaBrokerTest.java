/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.kafkatestkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerTest {

  @TempDir Path work;

  @Test
  void aBrokerWhosePortIsTakenBeforeItBindsStartsAgainOnOtherPortsAndLogsWhy() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      AtomicInteger calls = new AtomicInteger();
      IntSupplier ports =
          () -> {
            if (calls.getAndIncrement() == 0) {
              return taken.getLocalPort();
            }
            try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
              return free.getLocalPort();
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          };

      try (KafkaBroker kafka = KafkaBroker.start(work, ports)) {
        assertThat(kafka.bootstrapServers()).isNotEqualTo("127.0.0.1:" + taken.getLocalPort());
        assertThat(Files.readString(work.resolve("kafka.log")))
            .as("the first broker's log says why it exited")
            .contains("Address already in use");
        assertThat(work.resolve("attempt-2").resolve("kafka.log")).exists();
        int port = Integer.parseInt(kafka.bootstrapServers().split(":")[1]);
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
          assertThat(socket.isConnected()).isTrue();
        }
      }
    }
  }
}
