/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.source;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.it.support.ComparableRow;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.github.flinkdelta.uc.internal.UnityCatalogTableReference;
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
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;
import org.junit.jupiter.api.AfterAll;

/**
 * Flink's own source conformance suite ({@code SourceTestSuiteBase}) for {@code DeltaSource}: one
 * and several splits (versions), stop-with-savepoint and restart, a higher and a lower parallelism,
 * the readers' {@code numRecordsIn}, idle readers, and a TaskManager failure, on a path table and
 * on a Unity Catalog managed table in the embedded catalog, in exactly-once mode.
 */
class DeltaSourceConformanceITCase extends SourceTestSuiteBase<ComparableRow> {

  private static final String TOKEN = "source-conformance-token";
  private static final AtomicInteger TABLES = new AtomicInteger();

  private final Path root = temporaryDirectory();
  private final UnityCatalogServer catalog = startCatalog(root);
  private final UnityCatalogConnection connection =
      new UnityCatalogConnection(catalog.uri(), Secret.of(TOKEN));

  @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

  @TestSemantics
  CheckpointingMode[] semantics = new CheckpointingMode[] {CheckpointingMode.EXACTLY_ONCE};

  @TestContext
  ExternalContextFactory<DeltaSourceExternalContext> pathTable =
      testName -> {
        String path = root.resolve("path-" + TABLES.incrementAndGet()).toUri().toString();
        return new DeltaSourceExternalContext(
            "path table " + path, new PathTableLocator(path), builder -> builder.tablePath(path));
      };

  @TestContext
  ExternalContextFactory<DeltaSourceExternalContext> unityCatalogTable =
      testName -> {
        String name = "main.default.source_conformance_" + TABLES.incrementAndGet();
        return new DeltaSourceExternalContext(
            "Unity Catalog table " + name,
            new UnityCatalogTableReference(connection, UnityCatalogTableName.parse(name)),
            builder -> builder.unityCatalog(connection).tableName(name));
      };

  @AfterAll
  void stopCatalog() {
    catalog.close();
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("delta-source-conformance");
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
