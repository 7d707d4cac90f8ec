package io.github.flinkdelta.uc.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.Objects;
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
        () -> VendedCredentials.forTable(connection, conf, table.id(), table.location()));
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
