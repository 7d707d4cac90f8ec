/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.kafkatestkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * A real Apache Kafka broker in a child JVM on loopback: one KRaft node that is broker and
 * controller at once, its log under a directory of the caller's, topics created by the caller
 * (nothing is created on first use). Its classpath is the Kafka release this module was built with;
 * none of it reaches the caller's.
 *
 * <pre>{@code
 * try (KafkaBroker kafka = KafkaBroker.start(dir)) {
 *   props.put("bootstrap.servers", kafka.bootstrapServers());
 *   ...
 * }
 * }</pre>
 */
public final class KafkaBroker implements AutoCloseable {

  /** How long the broker may take to format its log and open its port. */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

  private static final String LOG_FILE = "kafka.log";

  private static final String LOG_CONFIG = "log4j2.properties";

  /**
   * Warnings and errors, which say why a broker exited, the line the broker logs once it serves
   * ({@link #STARTED}), and when it becomes a partition's leader.
   */
  private static final String LOGGING =
      String.join(
          "\n",
          "appender.out.type=Console",
          "appender.out.name=out",
          "appender.out.layout.type=PatternLayout",
          "appender.out.layout.pattern=%d{HH:mm:ss.SSS} %-5p %c: %m%n",
          "rootLogger.level=WARN",
          "rootLogger.appenderRef.out.ref=out",
          "logger.started.name=kafka.server.KafkaRaftServer",
          "logger.started.level=INFO",
          "logger.partitions.name=state.change.logger",
          "logger.partitions.level=INFO",
          "");

  /** What the broker logs once its listeners serve. */
  private static final String STARTED = "Kafka Server started";

  /** How many times a broker that exits at start is started again on other ports. */
  private static final int ATTEMPTS = 3;

  private final Process process;
  private final Path log;
  private final int port;

  private KafkaBroker(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Formats a new log under {@code workDirectory} and starts the broker on free loopback ports. A
   * port found free can be taken by another process before the broker binds it: a broker that exits
   * before it opens its port is started anew on other ports, in a directory of its own ({@code
   * attempt-2}, ...), at most {@value #ATTEMPTS} starts in all.
   *
   * @throws IllegalStateException when the broker does not come up, naming its logs and quoting
   *     their ends
   */
  public static KafkaBroker start(Path workDirectory) {
    return start(workDirectory, KafkaBroker::freePort);
  }

  /** As {@link #start(Path)}, on the ports {@code ports} gives, broker's first. */
  static KafkaBroker start(Path workDirectory, IntSupplier ports) {
    Path work = workDirectory.toAbsolutePath();
    IllegalStateException exited = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        return startIn(attempt == 1 ? work : work.resolve("attempt-" + attempt), ports);
      } catch (ExitedAtStart e) {
        if (exited == null) {
          exited = e;
        } else {
          exited.addSuppressed(e);
        }
      }
    }
    throw exited;
  }

  private static KafkaBroker startIn(Path work, IntSupplier ports) {
    Path log = work.resolve(LOG_FILE);
    int port;
    Process process;
    try {
      Files.createDirectories(work);
      port = ports.getAsInt();
      int controllerPort = ports.getAsInt();
      Files.writeString(work.resolve(LOG_CONFIG), LOGGING);
      Path properties = work.resolve("server.properties");
      Files.writeString(properties, serverProperties(work.resolve("data"), port, controllerPort));
      String classpath = classpath();
      int formatted =
          run(
              child(
                  work,
                  classpath,
                  log,
                  "kafka.tools.StorageTool",
                  "format",
                  "--cluster-id",
                  clusterId(),
                  "--config",
                  properties.toString(),
                  "--ignore-formatted"));
      if (formatted != 0) {
        throw new IllegalStateException(
            "Kafka's storage tool failed (exit " + formatted + "): " + tail(log));
      }
      process = child(work, classpath, log, "kafka.Kafka", properties.toString()).start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the Kafka broker in " + work, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while formatting Kafka's log in " + work, e);
    }
    KafkaBroker broker = new KafkaBroker(process, log, port);
    try {
      broker.awaitStarted();
      return broker;
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
  }

  /** The broker exited before it opened its port. */
  private static final class ExitedAtStart extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ExitedAtStart(String message) {
      super(message);
    }
  }

  /** The {@code bootstrap.servers} value that reaches the broker. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /**
   * The last few thousand characters of the broker's log (warnings and errors), for a caller's
   * failure message when the broker does not do what it was asked.
   */
  public String logTail() {
    return tail(log);
  }

  /** Stops the broker; its log stays for reading after a failure. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Waits until the broker logs that it serves and its port takes connections: an open port alone
   * may be another process's that took the port first.
   */
  private void awaitStarted() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new ExitedAtStart(
            "The Kafka broker exited with " + process.exitValue() + ": " + tail(log));
      }
      if (logged(STARTED)) {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
          return;
        } catch (IOException notYet) {
          // Logged before the port takes connections: wait a moment more.
        }
      }
      sleep();
    }
    throw new IllegalStateException(
        "The Kafka broker did not start serving on port "
            + port
            + " within "
            + START_TIMEOUT
            + ": "
            + tail(log));
  }

  private boolean logged(String line) {
    try {
      return Files.readString(log).contains(line);
    } catch (IOException notYet) {
      return false;
    }
  }

  private static ProcessBuilder child(
      Path work, String classpath, Path log, String mainClass, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-Dlog4j2.configurationFile=" + work.resolve(LOG_CONFIG));
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")));
    command.add(mainClass);
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // In the environment rather than after -cp: the command line stays short and readable.
    builder.environment().put("CLASSPATH", classpath);
    return builder;
  }

  private static int run(ProcessBuilder builder) throws IOException, InterruptedException {
    Process process = builder.start();
    if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return -1;
    }
    return process.exitValue();
  }

  private static String serverProperties(Path data, int port, int controllerPort) {
    return String.join(
        "\n",
        "process.roles=broker,controller",
        "node.id=1",
        "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
        "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
        "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
        "controller.listener.names=CONTROLLER",
        "inter.broker.listener.name=PLAINTEXT",
        "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs=" + data,
        "auto.create.topics.enable=false",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "");
  }

  /** A cluster id as Kafka writes them: 16 random bytes, URL-safe Base64 without padding. */
  private static String clusterId() {
    byte[] id = new byte[16];
    new SecureRandom().nextBytes(id);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on loopback", e);
    }
  }

  private static String classpath() throws IOException {
    try (InputStream in = KafkaBroker.class.getResourceAsStream("kafka.classpath")) {
      if (in == null) {
        throw new IOException(
            "kafka.classpath is missing from the kafka-testkit jar: build the module with Maven");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log);
      return "the end of " + log + ":\n" + text.substring(Math.max(0, text.length() - 3_000));
    } catch (IOException e) {
      return "its log " + log + " cannot be read (" + e.getMessage() + ")";
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the Kafka broker", e);
    }
  }
}
