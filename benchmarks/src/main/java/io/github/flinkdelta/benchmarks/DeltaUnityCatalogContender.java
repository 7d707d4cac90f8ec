/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * This sink writing a Unity Catalog managed table, served by the embedded catalog ({@code
 * uc-testkit}) over HTTP on loopback with storage on local disk. A commit is visible when the
 * catalog has ratified it.
 */
final class DeltaUnityCatalogContender implements Contender {

  static final String NAME = "delta-unity-catalog";

  private static final String TABLE = "main.default.benchmark_events";

  private UnityCatalogServer catalog;
  private Path storage;
  private DeltaSink sink;

  @Override
  public void prepare(Path dir, Scenario scenario, RunSettings settings) throws Exception {
    storage = dir.resolve("uc-storage");
    catalog = UnityCatalogServer.builder().storageRoot(storage).build().start();
    UnityCatalogConnection connection =
        new UnityCatalogConnection(catalog.uri(), Secret.of("benchmark"));
    sink =
        DeltaPathContender.configure(
                DeltaSink.builder().unityCatalog(connection).tableName(TABLE), scenario, settings)
            .build();
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    rows.sinkTo(sink).name(NAME).uid(NAME);
  }

  @Override
  public CommitObserver observeCommits() {
    return CommitObserver.versions(() -> catalog.latestVersion(TABLE), 2);
  }

  @Override
  public Path dataRoot() {
    return storage;
  }

  /** The files of the managed table's published commits (the sink publishes every commit). */
  @Override
  public java.util.List<Path> committedFiles() throws java.io.IOException {
    return DeltaPathContender.addedFiles(tableDirectory());
  }

  /** The checkpoint of each version the catalog ratified, from the published commits. */
  @Override
  public java.util.Map<Long, Long> checkpointOfVersion() throws java.io.IOException {
    return DeltaPathContender.checkpointsOf(tableDirectory());
  }

  private Path tableDirectory() {
    String location = catalog.storageLocation(TABLE);
    if (location == null) {
      throw new IllegalStateException("The catalog has no table " + TABLE);
    }
    return Path.of(java.net.URI.create(location));
  }

  @Override
  public void close() {
    if (catalog != null) {
      catalog.close();
    }
  }
}
