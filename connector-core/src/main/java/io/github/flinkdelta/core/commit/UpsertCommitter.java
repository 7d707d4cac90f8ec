/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.commit.CommitFailedException;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.commit.CommitOutcome.AlreadyCommitted;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Conflicted;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.kernel.RowTracking;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LoggedVersions;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits upserts: a checkpoint's new files and the rows it deletes by position (deletion vectors),
 * then the writers' compactions of the checkpoint in a version of their own ({@link
 * RewriteCommit}).
 *
 * <p>Another writer may have changed the table since the writers' key index last looked: a delete
 * whose row it moved or deleted is stale and dropped, and the checkpoint's keys are settled by key
 * against the rows it added since the checkpoint's index version ({@link StaleRows}). Unlike an
 * append, an upsert commit is never rebased by Kernel onto a version it did not plan on: a version
 * of another writer that lands first may hold rows of the checkpoint's keys, so the commit is
 * planned again on the table as it is then.
 *
 * <p>Failure semantics as for appends ({@link TableCommitter}): the transaction id ({@code appId},
 * checkpoint) makes a replay write nothing, and an unknown outcome is settled by it. The
 * compactions commit under the app id {@link UpsertTables#rewriteAppId}, so that a replay after a
 * failure between the two versions commits them once.
 */
final class UpsertCommitter {

  private static final Logger LOG = LoggerFactory.getLogger(UpsertCommitter.class);

  private final String tableName;
  private final Engine engine;
  private final SnapshotCache snapshots;
  private final Configuration conf;
  private final int maxCommitRetries;
  private final WriteContexts writeContexts;
  private final LoggedVersions log;
  private final WrittenVectors written = new WrittenVectors(WrittenVectors.DEFAULT_BUDGET_BYTES);

  /** The files of a recent version, once an upsert needed them; null until then. */
  private LiveFiles liveFiles;

  /** The key by which deletes are settled; null to refuse stale deletes. */
  private KeyColumns key;

  UpsertCommitter(
      String tableName,
      Engine engine,
      SnapshotCache snapshots,
      Configuration conf,
      int maxCommitRetries,
      WriteContexts writeContexts,
      LoggedVersions log) {
    this.tableName = tableName;
    this.engine = engine;
    this.snapshots = snapshots;
    this.conf = conf;
    this.maxCommitRetries = maxCommitRetries;
    this.writeContexts = writeContexts;
    this.log = log;
  }

  /** Settles deletes by {@code key} from now on (see {@link StaleRows}). */
  void settleBy(KeyColumns key) {
    this.key = key;
  }

  /** Whether commits settle by key: those of an upsert sink. */
  boolean settlesByKey() {
    return key != null;
  }

  /** Whether a commit of {@code deletes} goes through this committer. */
  boolean takes(FileDeletes deletes) {
    return key != null || !deletes.isEmpty();
  }

  /**
   * Commits the checkpoint ({@code appId}, {@code txnVersion}), then its compactions.
   *
   * @param checks run on each snapshot a commit is planned on, before anything is written
   */
  CommitOutcome commit(
      String appId,
      long txnVersion,
      Iterable<DataFile> files,
      FileDeletes deletes,
      Consumer<Snapshot> checks) {
    Set<Long> outputs = deletes.rewrittenOutputs();
    List<DataFile> data = new ArrayList<>();
    List<DataFile> rewritten = new ArrayList<>();
    for (DataFile file : files) {
      boolean output =
          outputs.contains(FileIds.of(file.path()))
              && !deletes.legacyRewrittenOutputs().contains(FileIds.of(file.path()));
      (output ? rewritten : data).add(file);
    }
    // A checkpoint that only hands on compactions has no version of its own.
    boolean checkpointVersion =
        !data.isEmpty() || !deletes.withoutRewrites().isEmpty() || deletes.rewrites().isEmpty();
    CommitOutcome outcome =
        checkpointVersion
            ? commitLoop(
                appId,
                txnVersion,
                Operation.STREAMING_UPDATE,
                checks,
                (snapshot, txn) -> planCheckpoint(snapshot, txn, appId, data, deletes))
            : null;
    if (deletes.rewrites().isEmpty()
        || outcome instanceof Conflicted
        || outcome instanceof Failed) {
      return outcome;
    }
    long readVersion =
        deletes.rewrites().stream().mapToLong(RewriteLayout::readVersion).max().orElse(-1);
    if (snapshots.current().getVersion() < readVersion) {
      // The rewrites read a newer table than this committer holds: their inputs' entries are newer.
      snapshots.reload();
    }
    CommitOutcome rewrites =
        commitLoop(
            UpsertTables.rewriteAppId(appId),
            txnVersion,
            Operation.MANUAL_UPDATE,
            checks,
            (snapshot, txn) -> planRewrites(snapshot, txn, deletes.rewrites(), rewritten));
    return outcome == null || rewrites instanceof Conflicted || rewrites instanceof Failed
        ? rewrites
        : outcome;
  }

  /** A commit's plan: its actions and what to do once they are in the table. */
  private interface Planned {
    CloseableIterable<Row> actions();

    void committed(long version, boolean next);

    long settledRows();
  }

  @FunctionalInterface
  private interface Planner {
    Planned plan(Snapshot snapshot, Transaction txn);
  }

  private CommitOutcome commitLoop(
      String appId,
      long txnVersion,
      Operation operation,
      Consumer<Snapshot> checks,
      Planner planner) {
    Attempts attempts = new Attempts();
    for (; ; ) {
      Snapshot snapshot = snapshots.current();
      checks.accept(snapshot);
      TaggedTransaction tagged;
      try {
        tagged =
            TaggedTransaction.start(engine, snapshots, snapshot, operation, appId, txnVersion, 0);
      } catch (ConcurrentTransactionException e) {
        return new AlreadyCommitted(
            snapshot.getVersion(), snapshots.transactionVersion(appId), attempts.unknown);
      }
      Planned planned = planner.plan(snapshot, tagged.txn());
      TransactionCommitResult result;
      try {
        result = tagged.txn().commit(engine, tagged.actions(planned.actions()));
      } catch (ConcurrentTransactionException e) {
        Snapshot reloaded = snapshots.reload();
        return new AlreadyCommitted(
            reloaded.getVersion(), snapshots.transactionVersion(appId), attempts.unknown);
      } catch (MaxCommitRetryLimitReachedException | CommitStateUnknownException e) {
        CommitOutcome lost = afterLostCommit(e, appId, txnVersion, attempts, planned.settledRows());
        if (lost != null) {
          return lost;
        }
        continue;
      } catch (RuntimeException e) {
        return new Failed(e);
      }
      planned.committed(result.getVersion(), result.getVersion() == snapshot.getVersion() + 1);
      log.committed(result.getVersion(), appId);
      long publishMillis =
          snapshots.committed(
              result.getPostCommitSnapshot().orElse(null), result.getVersion(), appId, txnVersion);
      return new Committed(
          result.getVersion(),
          txnVersion,
          attempts.unknown + attempts.conflicts,
          attempts.conflicts,
          publishMillis,
          planned.settledRows());
    }
  }

  /** The commits a loop tried that met another writer, and those whose outcome was unknown. */
  private static final class Attempts {
    int conflicts;
    int unknown;
  }

  /**
   * Settles a commit whose outcome is unknown or that met another writer's commit, by the
   * transaction the reloaded table records: the outcome, or null to plan the commit again.
   */
  private CommitOutcome afterLostCommit(
      RuntimeException e, String appId, long txnVersion, Attempts attempts, long settledRows) {
    boolean conflict =
        e.getCause() instanceof CommitFailedException failure && failure.isConflict();
    Snapshot reloaded;
    try {
      reloaded = snapshots.reload();
    } catch (RuntimeException reloadFailure) {
      reloadFailure.addSuppressed(e);
      return new Failed(reloadFailure);
    }
    long recorded = snapshots.transactionVersion(appId);
    if (recorded == txnVersion) {
      // It landed; only the answer was lost.
      return new Committed(
          reloaded.getVersion(),
          txnVersion,
          attempts.unknown + 1,
          attempts.conflicts,
          0,
          settledRows);
    }
    if (recorded > txnVersion) {
      return new AlreadyCommitted(reloaded.getVersion(), recorded, attempts.unknown + 1);
    }
    if (conflict) {
      attempts.conflicts++;
      if (attempts.conflicts >= TableCommitter.MAX_CONFLICT_ATTEMPTS) {
        return new Conflicted(attempts.conflicts, e);
      }
      LOG.info(
          "Commit of {} (appId {}, txn {}) met a commit of another writer; planning again on"
              + " version {}",
          tableName,
          appId,
          txnVersion,
          reloaded.getVersion());
    } else {
      attempts.unknown++;
      if (attempts.unknown > maxCommitRetries) {
        return new Failed(e);
      }
      LOG.warn(
          "Commit of {} (appId {}, txn {}) failed without landing; trying again",
          tableName,
          appId,
          txnVersion,
          e);
    }
    return null;
  }

  private Planned planCheckpoint(
      Snapshot snapshot, Transaction txn, String appId, List<DataFile> files, FileDeletes all) {
    FileDeletes deletes = all.withoutRewrites();
    Row state = txn.getTransactionState(engine);
    CloseableIterable<Row> appends =
        AppendActions.of(engine, state, snapshot, writeContexts, files);
    LiveFiles live = liveFilesOf(snapshot);
    CheckpointDeletes.Settlement settlement =
        CheckpointDeletes.settle(
            tableName, engine, conf, log, written, key, appId, snapshot, live, files, deletes);
    UpsertActions actions =
        UpsertActions.plan(
            tableName,
            conf,
            snapshot,
            live,
            files,
            appends,
            settlement.deletes(),
            settlement.sharedIdDeletes(),
            written);
    long settled = settlement.settledRows();
    return new Planned() {
      @Override
      public CloseableIterable<Row> actions() {
        return actions.actions();
      }

      @Override
      public void committed(long version, boolean next) {
        actions.committedInto(written);
        // Otherwise the log gives the next list: with the row ids Kernel assigned, or the
        // entries of files whose ids another file shares, which only their paths tell apart.
        liveFiles =
            next && !RowTracking.isOn(snapshot) && !actions.changesSharedIdFiles()
                ? live.next(version, actions.changedEntries(), actions.removedIds())
                : live;
      }

      @Override
      public long settledRows() {
        return settled;
      }
    };
  }

  private Planned planRewrites(
      Snapshot snapshot, Transaction txn, List<RewriteLayout> layouts, List<DataFile> outputs) {
    Row state = txn.getTransactionState(engine);
    CloseableIterable<Row> appends =
        AppendActions.of(engine, state, snapshot, writeContexts, outputs);
    LiveFiles live = liveFilesOf(snapshot);
    RewriteCommit rewrite =
        RewriteCommit.plan(
            tableName, conf, snapshot.getPath(), live, layouts, outputs, appends, written);
    if (rewrite.keptInputs() > 0) {
      LOG.warn(
          "{} files a compaction of {} rewrote hold rows again that it had not read (another"
              + " writer restored them); they stay, and their rows in the compaction's files are"
              + " deleted",
          rewrite.keptInputs(),
          tableName);
    }
    return new Planned() {
      @Override
      public CloseableIterable<Row> actions() {
        return rewrite.actions();
      }

      @Override
      public void committed(long version, boolean next) {
        rewrite.committedInto(written);
        liveFiles =
            next && !RowTracking.isOn(snapshot)
                ? live.next(version, rewrite.addedEntries(), rewrite.removedInputs())
                : live;
      }

      @Override
      public long settledRows() {
        return 0;
      }
    };
  }

  private LiveFiles liveFilesOf(Snapshot snapshot) {
    long version = snapshot.getVersion();
    if (liveFiles != null && liveFiles.version() == version) {
      return liveFiles;
    }
    if (liveFiles != null
        && liveFiles.version() < version
        && version - liveFiles.version() <= LoggedVersions.CAPACITY / 2) {
      try {
        liveFiles = liveFiles.after(log.all(liveFiles.version(), version), tableName);
        return liveFiles;
      } catch (RuntimeException e) {
        LOG.warn(
            "Cannot follow the files of {} from version {} to {} through its log; listing them",
            tableName,
            liveFiles.version(),
            version,
            e);
      }
    }
    liveFiles = LiveFiles.of(engine, snapshot, tableName);
    return liveFiles;
  }
}
