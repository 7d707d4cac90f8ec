/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.delta.kernel.transaction.UpdateTableTransactionBuilder;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.commit.CommitOutcome.AlreadyCommitted;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Conflicted;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.log.LoggedVersions;
import io.github.flinkdelta.core.schema.SchemaChangedException;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits to one table through Kernel: appends under a transaction id, with Kernel's retries of
 * retryable failures, a rebuild on the latest snapshot when Kernel cannot rebase onto a concurrent
 * commit, and an unknown outcome settled by the transaction id.
 *
 * <p>Failure semantics: an append that meets its own transaction (app id, version) or a later one
 * in the table writes nothing ({@link AlreadyCommitted}). A commit whose response was lost
 * (Kernel's {@link CommitStateUnknownException}) is settled by reloading the table: if it holds the
 * transaction, the commit landed; if not, it is tried once more. Nothing is ever blindly retried
 * without Kernel's transaction check, so a retry cannot add the files twice.
 */
@Internal
public final class TableCommitter {

  private static final Logger LOG = LoggerFactory.getLogger(TableCommitter.class);

  /** Rebuilds of one append after concurrent commits Kernel could not rebase onto. */
  static final int MAX_CONFLICT_ATTEMPTS = 10;

  private final String tableName;
  private final Engine engine;
  private final SnapshotCache snapshots;
  private final int maxCommitRetries;
  private final WriteContexts writeContexts = new WriteContexts();
  private final UpsertCommitter upserts;
  private CommitChecks checks;

  /** Whether appends follow any schema change that keeps the partition columns. */
  private boolean followsSchemaChanges;

  public TableCommitter(
      String tableName,
      Engine engine,
      SnapshotCache snapshots,
      int maxCommitRetries,
      Configuration storageConf,
      LoggedVersions log) {
    this.tableName = tableName;
    this.engine = engine;
    this.snapshots = snapshots;
    this.maxCommitRetries = maxCommitRetries;
    this.upserts =
        new UpsertCommitter(
            tableName, engine, snapshots, storageConf, maxCommitRetries, writeContexts, log);
  }

  /**
   * Makes every later append check first that the table still reads files of {@code layout}: a
   * schema another writer changed is followed when the files stay readable, and refused otherwise.
   */
  public void checkFilesOf(FileLayout layout) {
    this.checks = new CommitChecks(tableName, layout);
  }

  /**
   * Makes every later append follow a schema change committed after its files were written, as long
   * as the partition columns stay: for writers that lay each file out against the table as they
   * found it and evolve the table themselves while earlier files wait for their commit (the dynamic
   * sink). Columns are found by physical name, so an added column reads as null in the files, a
   * widened one reads their narrower values, and a renamed or dropped one reads under its new name
   * or not at all.
   */
  public void followSchemaChanges() {
    this.followsSchemaChanges = true;
  }

  /**
   * Makes every later commit an upsert commit, settled by {@code key} against other writers'
   * changes ({@link UpsertCommitter}), instead of failing with a {@link RewrittenFileException}.
   */
  public void settleStaleDeletesBy(KeyColumns key) {
    upserts.settleBy(key);
  }

  /**
   * Appends {@code files}, and deletes the rows {@code deletes} names, in one table version tagged
   * with transaction ({@code appId}, {@code txnVersion}), unless the table already holds that
   * transaction version or a later one; the writers' compactions {@code deletes} hands on follow in
   * a version of their own.
   */
  public CommitOutcome commit(
      String appId, long txnVersion, Iterable<DataFile> files, FileDeletes deletes) {
    if (upserts.takes(deletes)) {
      try {
        return upserts.commit(
            appId, txnVersion, files, deletes, snapshot -> checkFilesFit(snapshot, files));
      } catch (SchemaChangedException | RewrittenFileException e) {
        return new Conflicted(1, e);
      } catch (RuntimeException e) {
        return new Failed(e);
      }
    }
    for (int attempt = 1; ; attempt++) {
      StructType schema = snapshots.current().getSchema();
      List<String> partitionColumns = snapshots.current().getPartitionColumnNames();
      try {
        return commitSettlingUnknown(appId, txnVersion, files, deletes, attempt - 1);
      } catch (ConcurrentWriteException e) {
        // Kernel could not rebase onto a concurrent commit (one that changed the table's metadata,
        // say). The append is blind and its transaction id guards against doubles, so it is
        // rebuilt on the latest snapshot, after checking that the table still reads its files.
        Snapshot latest;
        try {
          latest = snapshots.reload();
        } catch (RuntimeException reloadFailure) {
          reloadFailure.addSuppressed(e);
          return new Failed(reloadFailure);
        }
        // With the files' layout known, a new schema is checked before the retry instead.
        boolean schemaMoved =
            checks == null
                && !schema.equals(latest.getSchema())
                && !(followsSchemaChanges
                    && partitionColumns.equals(latest.getPartitionColumnNames()));
        if (attempt >= MAX_CONFLICT_ATTEMPTS || schemaMoved) {
          return new Conflicted(attempt, e);
        }
        LOG.info(
            "Commit of {} (appId {}, txn {}) met a concurrent commit; retrying on version {}",
            tableName,
            appId,
            txnVersion,
            latest.getVersion());
      } catch (SchemaChangedException | RewrittenFileException e) {
        // The table no longer reads the files: as when the schema moved without a known layout,
        // this is a conflict with a concurrent change, which no retry of the commit resolves.
        return new Conflicted(attempt, e);
      } catch (RuntimeException e) {
        return new Failed(e);
      }
    }
  }

  private CommitOutcome commitSettlingUnknown(
      String appId, long txnVersion, Iterable<DataFile> files, FileDeletes deletes, int conflicts)
      throws ConcurrentWriteException {
    try {
      return tryCommit(appId, txnVersion, files, deletes, conflicts, 0);
    } catch (CommitStateUnknownException e) {
      // The commit may or may not have landed: the transaction id decides.
      LOG.warn(
          "Commit of {} (appId {}, txn {}) has an unknown outcome; reloading the table to find out",
          tableName,
          appId,
          txnVersion,
          e);
      return settle(appId, txnVersion, files, deletes, conflicts);
    } catch (FailedWithoutRebase e) {
      LOG.info(
          "Commit of {} (appId {}, txn {}) did not land right after this sink's last commit;"
              + " reloading the table",
          tableName,
          appId,
          txnVersion,
          e.getCause());
      // Tried again, if it did not land, through Kernel's own check, which retries and rebases.
      snapshots.forgetOwnTransactions();
      return settle(appId, txnVersion, files, deletes, conflicts);
    }
  }

  /** Settles a commit whose outcome is unknown by the transaction the reloaded table records. */
  private CommitOutcome settle(
      String appId, long txnVersion, Iterable<DataFile> files, FileDeletes deletes, int conflicts)
      throws ConcurrentWriteException {
    Snapshot reloaded = snapshots.reload();
    long recorded = snapshots.transactionVersion(appId);
    if (recorded == txnVersion) {
      // This attempt landed; only its response was lost.
      return new Committed(reloaded.getVersion(), txnVersion, 1, conflicts, 0, 0);
    }
    if (recorded > txnVersion) {
      return new AlreadyCommitted(reloaded.getVersion(), recorded, 1);
    }
    return tryCommit(appId, txnVersion, files, deletes, conflicts, 1);
  }

  /**
   * A commit that was not to rebase ({@link TaggedTransaction#rebases}) failed: another writer
   * committed first, or the commit failed without an answer.
   */
  private static final class FailedWithoutRebase extends RuntimeException {
    FailedWithoutRebase(MaxCommitRetryLimitReachedException cause) {
      super(cause);
    }
  }

  private CommitOutcome tryCommit(
      String appId,
      long txnVersion,
      Iterable<DataFile> files,
      FileDeletes deletes,
      int conflicts,
      int settled)
      throws ConcurrentWriteException {
    Snapshot snapshot = snapshots.current();
    checkFilesFit(snapshot, files);
    TaggedTransaction tagged;
    try {
      tagged =
          TaggedTransaction.start(
              engine,
              snapshots,
              snapshot,
              Operation.STREAMING_UPDATE,
              appId,
              txnVersion,
              maxCommitRetries);
    } catch (ConcurrentTransactionException e) {
      return new AlreadyCommitted(
          snapshot.getVersion(), snapshots.transactionVersion(appId), settled);
    }
    Row state = tagged.txn().getTransactionState(engine);
    CloseableIterable<Row> appends =
        AppendActions.of(engine, state, snapshot, writeContexts, files);
    TransactionCommitResult result;
    try {
      result = tagged.txn().commit(engine, tagged.actions(appends));
    } catch (ConcurrentTransactionException e) {
      Snapshot reloaded = snapshots.reload();
      return new AlreadyCommitted(
          reloaded.getVersion(), snapshots.transactionVersion(appId), settled);
    } catch (MaxCommitRetryLimitReachedException e) {
      if (tagged.rebases()) {
        throw e;
      }
      throw new FailedWithoutRebase(e);
    }
    long publishMillis =
        snapshots.committed(
            result.getPostCommitSnapshot().orElse(null), result.getVersion(), appId, txnVersion);
    // Kernel's post-commit hooks are not run here: Delta checkpoints are written off the commit
    // path by DeltaCheckpoints, through a writer that never leaves a partial checkpoint file, and
    // the version checksum by the snapshot cache above (VersionChecksums).
    long attempts = result.getTransactionReport().getTransactionMetrics().getNumCommitAttempts();
    int retries = (int) Math.max(0, attempts - 1) + settled;
    return new Committed(result.getVersion(), txnVersion, retries, conflicts, publishMillis, 0);
  }

  /**
   * Replaces the {@code removed} files by {@code added} files holding the same rows, in one version
   * whose actions all say {@code dataChange = false}, tagged with transaction ({@code appId},
   * {@code txnVersion}). Kernel rebases onto concurrent commits that remove none of the removed
   * files; one that did (a re-add with a new deletion vector, another rewrite) makes the outcome
   * {@link Conflicted}, and the caller, not this method, decides whether to plan again. An unknown
   * outcome is settled by the transaction id.
   */
  public CommitOutcome rewrite(
      Snapshot snapshot,
      String appId,
      long txnVersion,
      List<LiveFile> removed,
      Iterable<DataFile> added) {
    Transaction txn;
    try {
      txn =
          snapshot
              .buildUpdateTableTransaction(TableReference.ENGINE_INFO, Operation.MANUAL_UPDATE)
              .withTransactionId(appId, txnVersion)
              .withMaxRetries(maxCommitRetries)
              .build(engine);
    } catch (ConcurrentTransactionException e) {
      return new AlreadyCommitted(snapshot.getVersion(), snapshots.transactionVersion(appId), 0);
    }
    Row state = txn.getTransactionState(engine);
    CloseableIterable<Row> actions =
        RewriteActions.of(
            removed,
            AppendActions.of(engine, state, snapshot, writeContexts, added),
            URI.create(snapshot.getPath()));
    TransactionCommitResult result;
    try {
      result = txn.commit(engine, actions);
    } catch (ConcurrentTransactionException e) {
      Snapshot reloaded = snapshots.reload();
      return new AlreadyCommitted(reloaded.getVersion(), snapshots.transactionVersion(appId), 0);
    } catch (ConcurrentWriteException e) {
      snapshots.reload();
      return new Conflicted(1, e);
    } catch (CommitStateUnknownException e) {
      Snapshot reloaded = snapshots.reload();
      if (snapshots.transactionVersion(appId) == txnVersion) {
        return new Committed(reloaded.getVersion(), txnVersion, 1, 0, 0, 0);
      }
      return new Failed(e);
    } catch (RuntimeException e) {
      return new Failed(e);
    }
    snapshots.committed(
        result.getPostCommitSnapshot().orElse(null), result.getVersion(), appId, txnVersion);
    long attempts = result.getTransactionReport().getTransactionMetrics().getNumCommitAttempts();
    return new Committed(result.getVersion(), txnVersion, (int) Math.max(0, attempts - 1), 0, 0, 0);
  }

  /**
   * Removes every data file of the table, in one version whose removes say {@code dataChange =
   * true}, tagged with transaction ({@code appId}, {@code txnVersion}), unless the table already
   * holds that transaction version or a later one (see {@link TruncateCommit}).
   */
  public CommitOutcome truncate(String appId, long txnVersion) {
    return new TruncateCommit(tableName, engine, snapshots, maxCommitRetries)
        .commit(appId, txnVersion);
  }

  private void checkFilesFit(Snapshot snapshot, Iterable<DataFile> files) {
    if (checks != null) {
      checks.check(snapshot, files, upserts.settlesByKey());
    }
  }

  /**
   * Commits {@code schema} as the table's new schema, with {@code properties} added, in one version
   * without data.
   *
   * @param schema the new schema, or null to keep the current one
   * @return the version that holds it
   */
  public long updateMetadata(StructType schema, Map<String, String> properties) {
    UpdateTableTransactionBuilder builder =
        snapshots
            .current()
            .buildUpdateTableTransaction(TableReference.ENGINE_INFO, Operation.MANUAL_UPDATE)
            .withMaxRetries(maxCommitRetries);
    if (schema != null) {
      builder = builder.withUpdatedSchema(schema);
    }
    if (!properties.isEmpty()) {
      builder = builder.withTablePropertiesAdded(properties);
    }
    Transaction txn = builder.build(engine);
    TransactionCommitResult result = txn.commit(engine, CloseableIterable.emptyIterable());
    snapshots.committed(result.getPostCommitSnapshot().orElse(null), result.getVersion());
    return result.getVersion();
  }
}
