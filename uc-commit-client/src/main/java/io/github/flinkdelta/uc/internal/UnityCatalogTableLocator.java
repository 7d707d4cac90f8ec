/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.hadoop.UCCredentialHadoopConfs;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * A Delta table registered in Unity Catalog, whose files are reached with the storage credentials
 * the catalog vends for it.
 *
 * <p>For a managed table, snapshots come from the catalog's ratified commits, commits are ratified
 * by the catalog (Kernel's catalog committer), and every commit is published to {@code _delta_log}
 * right after, so the catalog's limit of unbackfilled commits is never reached. An external table
 * is committed by path, like any Delta table.
 */
public record UnityCatalogTableLocator(UnityCatalogConnection connection, UnityCatalogTable table)
    implements TableLocator {

  public UnityCatalogTableLocator {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(table, "table");
  }

  @Override
  public String name() {
    return table.name().toString();
  }

  @Override
  public String description() {
    return UnityCatalogTableReference.describe(connection, table.name());
  }

  @Override
  public String path() {
    return table.location();
  }

  /** The storage configuration with vended credentials, waiting out a short catalog outage. */
  @Override
  public Configuration storageConf(Configuration conf) {
    return CatalogOutages.waitOut(
        connection,
        "vend credentials for " + table.name(),
        () ->
            VendedCredentials.forTable(
                connection,
                conf,
                table.id(),
                table.location(),
                UCCredentialHadoopConfs.TableOperation.READ_WRITE));
  }

  /** The storage configuration with read-only vended credentials (SELECT on the table suffices). */
  @Override
  public Configuration readConf(Configuration conf) {
    return CatalogOutages.waitOut(
        connection,
        "vend read credentials for " + table.name(),
        () ->
            VendedCredentials.forTable(
                connection,
                conf,
                table.id(),
                table.location(),
                UCCredentialHadoopConfs.TableOperation.READ));
  }

  /**
   * Fails unless the catalog lets this connection write the table (read-write credentials are
   * granted only with MODIFY on it), then probes the storage like any table.
   */
  @Override
  public void checkWritable(Configuration storageConf) {
    try (UnityCatalogClient client = new UnityCatalogClient(connection, storageConf)) {
      client.requireWritable(table);
    }
    TableLocator.super.checkWritable(storageConf);
  }

  /**
   * A managed table's versions come from the catalog, which knows the commits it ratified before
   * they are published; an external table's from its {@code _delta_log}.
   */
  @Override
  public TableHistory history(Configuration conf) {
    if (!table.managed()) {
      return TableLocator.super.history(conf);
    }
    UnityCatalogClient client = new UnityCatalogClient(connection, conf);
    return new TableHistory() {
      @Override
      public Snapshot latest(Engine engine) {
        return load(engine, Optional.empty(), Optional.empty());
      }

      @Override
      public Snapshot atVersion(Engine engine, long version) {
        return load(engine, Optional.of(version), Optional.empty());
      }

      @Override
      public Snapshot atTimestamp(Engine engine, long timestampMillis) {
        return load(engine, Optional.empty(), Optional.of(timestampMillis));
      }

      @Override
      public CommitRange commits(Engine engine, long start, long end) {
        return CatalogOutages.waitOut(
            connection,
            "list the commits of " + table.name(),
            () -> client.loadCommitRange(engine, table, start, end));
      }

      private Snapshot load(Engine engine, Optional<Long> version, Optional<Long> timestamp) {
        return CatalogOutages.waitOut(
            connection,
            "load " + table.name(),
            () -> client.loadSnapshot(engine, table, version, timestamp));
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  @Override
  public SnapshotSource snapshots(Configuration conf) {
    if (!table.managed()) {
      // An external table's commits are files in its _delta_log, as for any path table.
      return new PathTableLocator(table.location()).snapshots(conf);
    }
    UnityCatalogClient client = new UnityCatalogClient(connection, conf);
    return new SnapshotSource() {
      @Override
      public Snapshot latest(Engine engine) {
        return CatalogOutages.waitOut(
            connection, "load " + table.name(), () -> client.loadSnapshot(engine, table));
      }

      @Override
      public Snapshot afterCommit(Engine engine, Snapshot committed) {
        return committed.publish(engine);
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }
}
