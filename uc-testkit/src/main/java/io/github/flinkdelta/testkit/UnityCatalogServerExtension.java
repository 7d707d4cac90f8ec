/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.annotation.PublicEvolving;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a {@link UnityCatalogServer} on loopback with its managed tables in
 * a fresh temporary directory. Registered on a static field it serves every test of the class; on
 * an instance field, each test gets a server of its own. The server and its directory are gone
 * after the test (or the class).
 *
 * <pre>{@code
 * @RegisterExtension
 * final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension(uc -> uc.token("t"));
 *
 * @Test
 * void commits() {
 *   URI endpoint = catalog.uri();
 *   catalog.faults().failNext("POST /delta/preview/commits", 1, 503);
 * }
 * }</pre>
 */
@PublicEvolving
public final class UnityCatalogServerExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private final Consumer<UnityCatalogServer.Builder> settings;
  private boolean perClass;
  private Path storageRoot;
  private UnityCatalogServer server;

  /** A server with the default settings: no token required, the UC Delta API offered. */
  public UnityCatalogServerExtension() {
    this(builder -> {});
  }

  /**
   * @param settings configures the server beyond its storage directory (which it may also replace,
   *     e.g. with an {@code s3://} root), as {@link UnityCatalogServer.Builder} allows
   */
  public UnityCatalogServerExtension(Consumer<UnityCatalogServer.Builder> settings) {
    this.settings = settings;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    perClass = true;
    start();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    if (server == null) {
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    if (!perClass) {
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    stop();
  }

  /** The running server. */
  public UnityCatalogServer server() {
    if (server == null) {
      throw new IllegalStateException(
          "The Unity Catalog test server runs only during a test; register the extension with"
              + " @RegisterExtension");
    }
    return server;
  }

  /** The server's base URI; the API is below {@link UnityCatalogServer#API_BASE}. */
  public URI uri() {
    return server().uri();
  }

  /** The faults to inject into the server's answers. */
  public FaultPlan faults() {
    return server().faults();
  }

  /** The temporary directory managed tables are placed under, unless the settings moved them. */
  public Path storageRoot() {
    server();
    return storageRoot;
  }

  private void start() throws IOException {
    storageRoot = Files.createTempDirectory("uc-testkit-");
    UnityCatalogServer.Builder builder = UnityCatalogServer.builder().storageRoot(storageRoot);
    settings.accept(builder);
    server = builder.build().start();
  }

  private void stop() throws IOException {
    if (server != null) {
      server.close();
      server = null;
    }
    if (storageRoot != null) {
      try (Stream<Path> files = Files.walk(storageRoot)) {
        files.sorted(Comparator.reverseOrder()).forEach(UnityCatalogServerExtension::delete);
      }
      storageRoot = null;
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the test server's storage at " + path, e);
    }
  }
}
