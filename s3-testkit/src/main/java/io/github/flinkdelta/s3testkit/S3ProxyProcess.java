/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * An S3 endpoint on loopback: s3proxy serving a directory, run as a child JVM so that its own
 * dependencies (jclouds, Jetty, Guava) never meet the caller's classpath. Requests are
 * authenticated with AWS signatures against one access key and secret, or, started with {@link
 * #startWithoutAuthorization}, not at all: then it belongs behind a {@link
 * CredentialEnforcingProxy}, which checks every request's key, signature and expiry itself.
 *
 * <pre>{@code
 * try (S3ProxyProcess s3 = S3ProxyProcess.start(dir, "access", "secret")) {
 *   s3.createBucket("lake");
 *   // fs.s3a.endpoint = s3.endpoint(), path-style access
 * }
 * }</pre>
 */
public final class S3ProxyProcess implements AutoCloseable {

  private static final String MAIN_CLASS = "org.gaul.s3proxy.Main";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path dataDirectory;
  private final Path log;
  private final URI endpoint;
  private final Thread shutdownHook;

  private S3ProxyProcess(Process process, Path dataDirectory, Path log, URI endpoint) {
    this.process = process;
    this.dataDirectory = dataDirectory;
    this.log = log;
    this.endpoint = endpoint;
    this.shutdownHook = new Thread(process::destroyForcibly, "s3proxy-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts s3proxy with its buckets under {@code workDirectory/data} and its log in {@code
   * workDirectory/s3proxy.log}, and returns once it accepts connections.
   */
  public static S3ProxyProcess start(Path workDirectory, String accessKey, String secretKey) {
    Objects.requireNonNull(accessKey, "accessKey");
    Objects.requireNonNull(secretKey, "secretKey");
    return start(workDirectory, accessKey, secretKey, true);
  }

  /**
   * Starts s3proxy like {@link #start(Path, String, String)} but accepting every request unsigned
   * ({@code s3proxy.authorization = none}): only for use behind a {@link CredentialEnforcingProxy},
   * never handed to the code under test directly.
   */
  public static S3ProxyProcess startWithoutAuthorization(Path workDirectory) {
    return start(workDirectory, null, null, false);
  }

  private static S3ProxyProcess start(
      Path workDirectory, String accessKey, String secretKey, boolean authorization) {
    try {
      Path data = Files.createDirectories(workDirectory.resolve("data"));
      int port = freePort();
      URI endpoint = URI.create("http://127.0.0.1:" + port);
      Properties settings = new Properties();
      settings.setProperty("s3proxy.endpoint", endpoint.toString());
      if (authorization) {
        settings.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        settings.setProperty("s3proxy.identity", accessKey);
        settings.setProperty("s3proxy.credential", secretKey);
      } else {
        settings.setProperty("s3proxy.authorization", "none");
      }
      settings.setProperty("jclouds.provider", "filesystem");
      settings.setProperty("jclouds.filesystem.basedir", data.toString());
      // The local backend checks no keys of its own, but jclouds insists on having some.
      settings.setProperty("jclouds.identity", "local");
      settings.setProperty("jclouds.credential", "local");
      Path settingsFile = workDirectory.resolve("s3proxy.properties");
      try (var out = Files.newOutputStream(settingsFile)) {
        settings.store(out, "s3proxy for tests");
      }
      Path log = workDirectory.resolve("s3proxy.log");
      // Without a configuration logback logs everything at DEBUG.
      Path logging = workDirectory.resolve("s3proxy-logback.xml");
      Files.writeString(
          logging,
          "<configuration><appender name=\"out\" class=\"ch.qos.logback.core.ConsoleAppender\">"
              + "<encoder><pattern>%d %-5level %logger - %msg%n</pattern></encoder></appender>"
              + "<root level=\"INFO\"><appender-ref ref=\"out\"/></root></configuration>");
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx256m");
      command.add("-Dlogback.configurationFile=" + logging);
      command.add("-cp");
      command.add(classpath());
      command.add(MAIN_CLASS);
      command.add("--properties");
      command.add(settingsFile.toString());
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      S3ProxyProcess proxy = new S3ProxyProcess(process, data, log, endpoint);
      proxy.awaitListening(port);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start s3proxy under " + workDirectory, e);
    }
  }

  /** The endpoint to give S3 clients ({@code fs.s3a.endpoint}); use path-style access. */
  public URI endpoint() {
    return endpoint;
  }

  /** Creates a bucket. */
  public void createBucket(String bucket) {
    try {
      Files.createDirectories(dataDirectory.resolve(bucket));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The directory that holds the objects of {@code bucket}, one file per key. */
  public Path bucketDirectory(String bucket) {
    return dataDirectory.resolve(bucket);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The hook runs anyway.
    }
  }

  private void awaitListening(int port) throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("s3proxy exited at start:\n" + Files.readString(log));
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException notYet) {
        sleep();
      }
    }
    close();
    throw new IOException(
        "s3proxy did not listen on port "
            + port
            + " within "
            + START_TIMEOUT
            + ":\n"
            + Files.readString(log));
  }

  private static String classpath() throws IOException {
    try (InputStream in = S3ProxyProcess.class.getResourceAsStream("s3proxy.classpath")) {
      if (in == null) {
        throw new IOException(
            "s3proxy.classpath is missing from the s3-testkit jar: build the module with Maven");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting s3proxy", e);
    }
  }
}
