/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.commit.CommitChecks;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.commit.ReloadPolicy;
import io.github.flinkdelta.core.commit.RewrittenFileException;
import io.github.flinkdelta.core.commit.SnapshotCache;
import io.github.flinkdelta.core.commit.TableCommitter;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.kernel.TableIdentity;
import io.github.flinkdelta.core.kernel.WriterFeatures;
import io.github.flinkdelta.core.keys.TableKeyReader;
import io.github.flinkdelta.core.keys.TableKeys;
import io.github.flinkdelta.core.log.LoggedVersions;
import io.github.flinkdelta.core.maintenance.TableMaintenance;
import io.github.flinkdelta.core.schema.FileLayouts;
import io.github.flinkdelta.core.storage.StorageScopes;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.LiveRowConsumer;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;

/**
 * A Delta table as the connector sees it: opened (or created) once, its latest snapshot kept in
 * memory ({@link SnapshotCache}), and appends committed with a transaction id ({@link
 * TableCommitter}) so that each is applied exactly once.
 *
 * <p>Not thread-safe: one committer owns one instance.
 */
@Internal
public final class DeltaTable implements AutoCloseable {

  private final TableLocator locator;
  private final Configuration storageConf;
  private final SnapshotCache snapshots;
  private final TableCommitter committer;
  private final TableMaintenance maintenance;
  private final MetadataUpdates metadata;
  private final TableKeyReader keyReader;
  private final Engine engine;
  private final StorageScopes.Lease storage;

  /** The table's versions as a reader sees them; opened when first needed. */
  private TableHistory history;

  private DeltaTable(
      TableLocator locator,
      Configuration hadoopConf,
      int maxCommitRetries,
      StorageScopes.Lease storage) {
    this.locator = locator;
    this.storage = storage;
    this.storageConf = locator.storageConf(hadoopConf);
    Engine engine = DefaultEngine.create(storageConf);
    this.snapshots = new SnapshotCache(engine, locator.snapshots(storageConf));
    this.engine = engine;
    this.committer =
        new TableCommitter(
            locator.name(),
            engine,
            snapshots,
            maxCommitRetries,
            storageConf,
            new LoggedVersions(engine, snapshots.current().getPath(), this::history));
    this.maintenance =
        new TableMaintenance(
            locator.name(),
            locator.path(),
            engine,
            snapshots,
            committer,
            storageConf,
            this::history);
    this.metadata = new MetadataUpdates(locator.name(), snapshots, committer, this::definition);
    this.keyReader =
        new TableKeyReader(
            locator.name(),
            engine,
            storageConf,
            snapshots::current,
            snapshots::reload,
            this::history);
  }

  private TableHistory history() {
    if (history == null) {
      history = locator.history(storageConf);
    }
    return history;
  }

  /**
   * Opens the table the request names, creating it first when it is missing and the request says
   * how.
   *
   * @throws IllegalStateException when the table is missing and may not be created, or its location
   *     is not writable for creating it
   */
  public static DeltaTable open(TableRequest request) {
    TableReference reference = request.table();
    StorageScopes.Lease storage = StorageScopes.lease(request.hadoopConf());
    try {
      TableLocator locator =
          reference
              .find(request.hadoopConf())
              .orElseGet(
                  () -> {
                    TableDefinition definition =
                        request
                            .createIfMissing()
                            .orElseThrow(
                                () ->
                                    new IllegalStateException(
                                        TableErrors.tableNotFound(reference)));
                    return reference.create(request.hadoopConf(), definition);
                  });
      return new DeltaTable(locator, request.hadoopConf(), request.maxCommitRetries(), storage);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** The table as messages name it. */
  public String name() {
    return locator.name();
  }

  /** The table's root location. */
  public String path() {
    return locator.path();
  }

  /** Where the table is, in the form operators of a job open it by. */
  public TableLocator locator() {
    return locator;
  }

  /** The snapshot this instance holds. */
  public Snapshot snapshot() {
    return snapshots.current();
  }

  /**
   * The table's unique id, from its metadata: a table dropped and created again under the same name
   * or path has another.
   */
  public String id() {
    return TableIdentity.of(snapshot());
  }

  /** Loads the table's latest snapshot afresh: from the catalog, or by listing the log. */
  public Snapshot reload() {
    return snapshots.reload();
  }

  /** The last transaction version the table records for {@code appId}, or -1. */
  public long transactionVersion(String appId) {
    return snapshots.transactionVersion(appId);
  }

  /**
   * Checks that rows of {@code rowType} fit the table and returns how writers lay them out.
   *
   * @param expectedPartitionColumns the partition columns the sink was configured with; empty to
   *     take the table's
   * @throws IllegalArgumentException listing every difference between the rows and the table
   */
  public FileLayout layoutFor(RowType rowType, List<String> expectedPartitionColumns) {
    return FileLayouts.forRows(
        name(),
        definition(),
        rowType,
        expectedPartitionColumns,
        WriterFeatures.materializesPartitions(snapshots.current()),
        WriterFeatures.clusteringColumns(snapshots.current()));
  }

  /**
   * Makes every later {@link #commit} check first that the table, as other writers may have changed
   * it, still reads files of {@code layout} and takes the commit (see {@link CommitChecks}).
   */
  public void checkCommitsAgainst(FileLayout layout) {
    committer.checkFilesOf(layout);
  }

  /**
   * Makes every later append follow schema changes committed while its files waited, as long as the
   * partition columns stay (see {@link TableCommitter#followSchemaChanges}): for a writer that
   * evolves the table itself while earlier files wait for their commit.
   */
  public void followSchemaChanges() {
    committer.followSchemaChanges();
  }

  private TableDefinition definition() {
    Snapshot snapshot = snapshots.current();
    return new TableDefinition(
        snapshot.getSchema(), snapshot.getPartitionColumnNames(), snapshot.getTableProperties());
  }

  /** Fails unless this process may write the table (see {@link TableLocator#checkWritable}). */
  public void checkWritable() {
    locator.checkWritable(storageConf);
  }

  /**
   * Appends {@code files} in one table version tagged with transaction ({@code appId}, {@code
   * txnVersion}), unless the table already holds that transaction version or a later one.
   */
  public CommitOutcome commit(String appId, long txnVersion, Iterable<DataFile> files) {
    return committer.commit(appId, txnVersion, files, FileDeletes.empty());
  }

  /**
   * Adds {@code files} and deletes the rows {@code deletes} names (in those files or in files of
   * the table) in one table version tagged with transaction ({@code appId}, {@code txnVersion}),
   * unless the table already holds that transaction version or a later one. A delete of a row the
   * table no longer holds live is settled as {@link #settleStaleDeletesBy} says.
   */
  public CommitOutcome commit(
      String appId, long txnVersion, Iterable<DataFile> files, FileDeletes deletes) {
    return committer.commit(appId, txnVersion, files, deletes);
  }

  /**
   * Removes every row of the table in one version tagged with transaction ({@code appId}, {@code
   * txnVersion}), unless the table already holds that transaction version or a later one (see
   * {@link TableCommitter#truncate}).
   */
  public CommitOutcome truncate(String appId, long txnVersion) {
    return committer.truncate(appId, txnVersion);
  }

  /**
   * Makes later upsert commits settle, by {@code key}, deletes of rows that another writer moved or
   * deleted after the sink's key index pointed at them: the checkpoint's touched keys keep exactly
   * its rows ({@link CommitOutcome.Committed#staleRows} counts such deletes). Without it, or for
   * deletes whose keys are unknown, such a commit fails as {@link CommitOutcome.Conflicted} with a
   * {@link RewrittenFileException}.
   */
  public void settleStaleDeletesBy(KeyColumns key) {
    committer.settleStaleDeletesBy(key);
  }

  /**
   * Hands the key of every live row of the current version, with its file id and position, to
   * {@code consumer}.
   *
   * @return the number of rows read
   */
  public long scanKeys(KeyColumns keys, LiveRowConsumer consumer) {
    return TableKeys.scan(engine, snapshots.current(), keys, consumer);
  }

  /**
   * What the versions after {@code fromVersion} through the latest did to the rows of the keys
   * {@code ownKey} accepts, for an upsert writer whose key index has taken in the table up to
   * {@code fromVersion} ({@link TableKeyReader}): the latest snapshot is loaded first.
   *
   * @param appId the sink's app id, whose versions are only named; null when unknown
   */
  public KeyChanges keyChanges(
      long fromVersion, KeyColumns keys, Predicate<String> ownKey, String appId) {
    return keyReader.keyChanges(fromVersion, keys, ownKey, appId);
  }

  /**
   * Whether the log still holds every version after {@code version} through the latest, so that a
   * writer's key index at {@code version} can follow it; false when log cleanup removed some.
   */
  public boolean logReadableAfter(long version) {
    return keyReader.logReadableAfter(version);
  }

  /** The rows the deletion vector {@code vector} of one of this table's files deletes. */
  public RowPositions deletedRows(DeletionVectorDescriptor vector) {
    return keyReader.deletedRows(vector);
  }

  /**
   * Compactions and vacuums of this table, through its committer (see {@link TableMaintenance}).
   */
  public TableMaintenance maintenance() {
    return maintenance;
  }

  /**
   * Changes of this table's metadata: its schema as rows evolve it, renames and drops of columns,
   * properties, and the deletion vectors upserts need (see {@link MetadataUpdates}).
   */
  public MetadataUpdates metadata() {
    return metadata;
  }

  /**
   * Reloads the latest snapshot when the {@link ReloadPolicy} says it is due.
   *
   * @param checkpointVersion the version of the latest Delta checkpoint this process wrote, or -1
   * @return whether it reloaded
   */
  public boolean reloadIfDue(long checkpointVersion) {
    return snapshots.reloadIfDue(checkpointVersion);
  }

  /**
   * A writer of this table's Delta checkpoints, on this table's storage.
   *
   * @param interval versions between checkpoints; null follows the table's {@code
   *     delta.checkpointInterval}, 0 writes none
   */
  public DeltaCheckpoints checkpoints(Integer interval) {
    return checkpoints(interval, null);
  }

  /**
   * As {@link #checkpoints(Integer)}, writing on {@code shared}, a thread the checkpoint writers of
   * many tables share; null for a thread of the writer's own.
   */
  public DeltaCheckpoints checkpoints(Integer interval, ExecutorService shared) {
    return DeltaCheckpoints.of(name(), storageConf, interval, shared);
  }

  @Override
  public void close() {
    try {
      try {
        snapshots.close();
      } finally {
        if (history != null) {
          history.close();
        }
      }
    } finally {
      storage.close();
    }
  }
}
