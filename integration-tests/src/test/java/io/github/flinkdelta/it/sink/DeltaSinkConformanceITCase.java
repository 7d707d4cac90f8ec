/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.ComparableRow;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.external.ExternalContextFactory;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SinkTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;
import org.junit.jupiter.api.AfterAll;

/**
 * Flink's own sink conformance suite ({@code SinkTestSuiteBase}) for {@code DeltaSink}: a basic
 * bounded job, stop-with-savepoint and restart at the same, a higher and a lower parallelism, and
 * the writer's {@code numRecordsSend} metric, each on a path table and on a Unity Catalog managed
 * table in the embedded catalog, read back through Kernel. Every test of the suite runs in both
 * checkpointing modes; the suite checks exactly-once in EXACTLY_ONCE mode and at-least-once in
 * AT_LEAST_ONCE mode.
 */
class DeltaSinkConformanceITCase extends SinkTestSuiteBase<ComparableRow> {

  private static final String TOKEN = "conformance-token";
  private static final AtomicInteger TABLES = new AtomicInteger();

  private final Path root = temporaryDirectory();
  private final UnityCatalogServer catalog = startCatalog(root);
  private final UnityCatalogConnection connection =
      new UnityCatalogConnection(catalog.uri(), Secret.of(TOKEN));

  @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

  @TestSemantics
  CheckpointingMode[] semantics =
      new CheckpointingMode[] {CheckpointingMode.EXACTLY_ONCE, CheckpointingMode.AT_LEAST_ONCE};

  @TestContext
  ExternalContextFactory<DeltaSinkExternalContext> pathTable =
      testName -> {
        String path = root.resolve("path-" + TABLES.incrementAndGet()).toUri().toString();
        return new DeltaSinkExternalContext(
            "path table " + path,
            builder -> builder.tablePath(path),
            () -> DeltaTableReader.readAll(path));
      };

  @TestContext
  ExternalContextFactory<DeltaSinkExternalContext> unityCatalogTable =
      testName -> {
        String name = "main.default.conformance_" + TABLES.incrementAndGet();
        return new DeltaSinkExternalContext(
            "Unity Catalog table " + name,
            builder -> builder.unityCatalog(connection).tableName(name),
            () -> CatalogReads.rows(connection, name));
      };

  @AfterAll
  void stopCatalog() {
    catalog.close();
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("delta-conformance");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static UnityCatalogServer startCatalog(Path root) {
    try {
      return UnityCatalogServer.builder()
          .storageRoot(root.resolve("uc"))
          .token(TOKEN)
          .build()
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
