/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real MariaDB server (Debian's {@code mariadb-server-core}, which {@code .ci/run} installs) in a
 * child process on loopback, its data under a directory of the caller's, writing a row-format
 * binlog as Flink CDC's MySQL source reads it; and a {@code cdc} user with the grants that source
 * needs. Statements run as {@code root} through MySQL's JDBC driver.
 */
final class MariaDbServer implements AutoCloseable {

  /** The replication user Flink CDC's source logs in as. */
  static final String USER = "cdc";

  static final String PASSWORD = "cdc";

  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final int ATTEMPTS = 3;

  private final Process process;
  private final Path log;
  private final int port;

  private MariaDbServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Initialises a data directory under {@code work} and starts the server on a free port; a server
   * that exits before it serves (its port taken meanwhile) is started again on another, at most
   * {@value #ATTEMPTS} times.
   */
  static MariaDbServer start(Path work) throws Exception {
    Path server = binary("mariadbd", "/usr/sbin/mariadbd");
    Path installDb = binary("mariadb-install-db", "/usr/bin/mariadb-install-db");
    Path data = work.resolve("data");
    Files.createDirectories(work);
    List<String> asRoot = isRoot() ? List.of("--user=root") : List.of();
    List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults"));
    install.addAll(asRoot);
    install.addAll(
        List.of("--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"));
    Process installing =
        new ProcessBuilder(install)
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("install-db.log").toFile())
            .start();
    if (!installing.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
        || installing.exitValue() != 0) {
      installing.destroyForcibly();
      throw new IllegalStateException(
          "mariadb-install-db failed: " + Files.readString(work.resolve("install-db.log")));
    }
    IllegalStateException failed = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      int port = freePort();
      Path log = work.resolve("error-" + attempt + ".log");
      List<String> command = new ArrayList<>(List.of(server.toString(), "--no-defaults"));
      command.addAll(asRoot);
      command.addAll(
          List.of(
              "--datadir=" + data,
              "--pid-file=" + work.resolve("mariadbd.pid"),
              "--socket=" + work.resolve("mariadbd.sock"),
              "--bind-address=127.0.0.1",
              "--port=" + port,
              "--log-bin=binlog",
              "--binlog-format=ROW",
              "--binlog-row-image=FULL",
              "--server-id=1",
              "--character-set-server=utf8mb4",
              "--collation-server=utf8mb4_general_ci",
              "--default-time-zone=+00:00",
              "--log-error=" + log));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      MariaDbServer started = new MariaDbServer(process, log, port);
      try {
        started.awaitServing();
        started.execute(
            "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
            "GRANT SELECT, RELOAD, SHOW DATABASES, LOCK TABLES, REPLICATION SLAVE,"
                + " REPLICATION CLIENT ON *.* TO '"
                + USER
                + "'@'%'");
        return started;
      } catch (IllegalStateException e) {
        started.close();
        failed = failed == null ? e : failed;
        if (failed != e) {
          failed.addSuppressed(e);
        }
      }
    }
    throw failed;
  }

  int port() {
    return port;
  }

  /**
   * A pipeline's {@code source:} block reading the tables {@code tables} (Flink CDC's pattern, e.g.
   * {@code shop.\.*}) of this server as Flink CDC's MySQL source, with source ids {@code
   * serverIds}; its lines end with a newline.
   */
  String pipelineSource(String tables, String serverIds) {
    return String.join(
        "\n",
        "source:",
        "  type: mysql",
        "  hostname: 127.0.0.1",
        "  port: " + port,
        "  username: " + USER,
        "  password: " + PASSWORD,
        "  tables: " + tables,
        "  server-id: " + serverIds,
        "  server-time-zone: UTC",
        "");
  }

  /** Runs {@code statements} in order, as root. */
  void execute(String... statements) throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  /** The rows {@code query} gives, each column as JDBC's default Java value of its type. */
  List<List<Object>> rows(String query) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>(columns);
        for (int i = 1; i <= columns; i++) {
          row.add(result.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** A connection as root. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(
        "jdbc:mysql://127.0.0.1:" + port + "/?useSSL=false&connectionTimeZone=UTC", "root", "");
  }

  private void awaitServing() throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    SQLException last = null;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "mariadbd exited with " + process.exitValue() + ": " + tail());
      }
      try (Connection connection = connect()) {
        return;
      } catch (SQLException notYet) {
        last = notYet;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(
        "mariadbd did not serve on port " + port + " within " + START_TIMEOUT + ": " + tail(),
        last);
  }

  private String tail() {
    try {
      String text = Files.exists(log) ? Files.readString(log) : "(no log)";
      return text.substring(Math.max(0, text.length() - 3_000));
    } catch (IOException e) {
      return "(its log " + log + " cannot be read: " + e.getMessage() + ")";
    }
  }

  private static Path binary(String name, String usual) {
    Path path = Path.of(usual);
    if (Files.isExecutable(path)) {
      return path;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path found = Path.of(dir, name);
      if (Files.isExecutable(found)) {
        return found;
      }
    }
    throw new IllegalStateException(
        name
            + " is not installed: install Debian's mariadb-server-core"
            + " (apt-get install -y mariadb-server-core), as .ci/run does");
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on loopback", e);
    }
  }
}
