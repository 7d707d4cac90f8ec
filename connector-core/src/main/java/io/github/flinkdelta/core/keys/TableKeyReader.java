/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.keys;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.UpsertTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an upsert writer's key index reads of one open table beyond a scan of its keys: what the
 * versions since the index's did to the rows of its keys ({@link KeyChangeReader}), whether the log
 * still holds those versions, and the rows a file's deletion vector deletes.
 */
@Internal
public final class TableKeyReader {

  /**
   * Logged as the table these reads are of ({@code core.table.DeltaTable}), as before the split.
   */
  private static final Logger LOG =
      LoggerFactory.getLogger("io.github.flinkdelta.core.table.DeltaTable");

  private final String tableName;
  private final Engine engine;
  private final Configuration storageConf;
  private final Supplier<Snapshot> current;
  private final Supplier<Snapshot> latest;
  private final Supplier<TableHistory> history;

  /**
   * The reads of table {@code tableName}.
   *
   * @param current the snapshot the table's handle holds
   * @param latest loads the table's latest snapshot afresh
   * @param history the table's versions as a reader sees them, opened when first needed
   */
  public TableKeyReader(
      String tableName,
      Engine engine,
      Configuration storageConf,
      Supplier<Snapshot> current,
      Supplier<Snapshot> latest,
      Supplier<TableHistory> history) {
    this.tableName = tableName;
    this.engine = engine;
    this.storageConf = storageConf;
    this.current = current;
    this.latest = latest;
    this.history = history;
  }

  /**
   * What the versions after {@code fromVersion} through the latest did to the rows of the keys
   * {@code ownKey} accepts; the latest snapshot is loaded first.
   *
   * @param appId the sink's app id, whose versions are only named; null when unknown
   */
  public KeyChanges keyChanges(
      long fromVersion, KeyColumns keys, Predicate<String> ownKey, String appId) {
    Snapshot latest = this.latest.get();
    return new KeyChangeReader(engine, latest, storageConf, keys, ownKey)
        .read(
            history.get(),
            fromVersion,
            latest.getVersion(),
            appId,
            appId == null ? UpsertTables.rewriteAppId("") : UpsertTables.rewriteAppId(appId));
  }

  /**
   * Whether the log still holds every version after {@code version} through the latest; false when
   * log cleanup removed some.
   */
  public boolean logReadableAfter(long version) {
    Snapshot latest = this.latest.get();
    if (latest.getVersion() <= version) {
      return true;
    }
    try {
      history.get().commits(engine, version + 1, latest.getVersion());
      return true;
    } catch (KernelException e) {
      LOG.info(
          "The log of {} no longer holds versions {} to {}: {}",
          tableName,
          version + 1,
          latest.getVersion(),
          e.getMessage());
      return false;
    }
  }

  /** The rows the deletion vector {@code vector} of one of the table's files deletes. */
  public RowPositions deletedRows(DeletionVectorDescriptor vector) {
    try {
      return DeletionVectorReader.read(storageConf, current.get().getPath(), vector);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read deletion vector " + vector.uniqueId() + " of " + tableName, e);
    }
  }
}
