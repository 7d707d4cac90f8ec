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
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.commit.CommitOutcome.AlreadyCommitted;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Conflicted;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.log.LiveFiles;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A version that removes every data file of a table ({@code remove} actions with {@code dataChange
 * = true}, deletion vectors and row-tracking fields kept), tagged with a transaction id, so that a
 * truncation sent again after a failure removes nothing the second time.
 *
 * <p>Rows another writer commits meanwhile stay when Kernel rebases the version onto theirs; a
 * concurrent removal of one of the files makes it list the files again on the latest version. A
 * lost response is settled by the transaction id.
 */
final class TruncateCommit {

  private final String tableName;
  private final Engine engine;
  private final SnapshotCache snapshots;
  private final int maxCommitRetries;

  TruncateCommit(String tableName, Engine engine, SnapshotCache snapshots, int maxCommitRetries) {
    this.tableName = tableName;
    this.engine = engine;
    this.snapshots = snapshots;
    this.maxCommitRetries = maxCommitRetries;
  }

  /** Commits the truncation, or finds it committed already. */
  CommitOutcome commit(String appId, long txnVersion) {
    for (int attempt = 1; ; attempt++) {
      Snapshot snapshot = snapshots.current();
      try {
        Transaction txn =
            snapshot
                .buildUpdateTableTransaction(TableReference.ENGINE_INFO, Operation.MANUAL_UPDATE)
                .withTransactionId(appId, txnVersion)
                .withMaxRetries(maxCommitRetries)
                .build(engine);
        long now = System.currentTimeMillis();
        List<Row> removes = new ArrayList<>();
        LiveFiles.scan(
            engine,
            snapshot,
            tableName,
            (file, scanFile) -> removes.add(file.removeAction(true, now)));
        TransactionCommitResult result = txn.commit(engine, rows(removes));
        snapshots.committed(
            result.getPostCommitSnapshot().orElse(null), result.getVersion(), appId, txnVersion);
        long attempts =
            result.getTransactionReport().getTransactionMetrics().getNumCommitAttempts();
        return new Committed(
            result.getVersion(), txnVersion, (int) Math.max(0, attempts - 1), attempt - 1, 0, 0);
      } catch (ConcurrentTransactionException e) {
        Snapshot reloaded = snapshots.reload();
        return new AlreadyCommitted(
            reloaded.getVersion(), snapshots.transactionVersion(appId), attempt - 1);
      } catch (ConcurrentWriteException e) {
        snapshots.reload();
        if (attempt >= TableCommitter.MAX_CONFLICT_ATTEMPTS) {
          return new Conflicted(attempt, e);
        }
      } catch (CommitStateUnknownException e) {
        Snapshot reloaded = snapshots.reload();
        if (snapshots.transactionVersion(appId) >= txnVersion) {
          return new Committed(reloaded.getVersion(), txnVersion, attempt, attempt - 1, 0, 0);
        }
        if (attempt >= TableCommitter.MAX_CONFLICT_ATTEMPTS) {
          return new Failed(e);
        }
      } catch (RuntimeException e) {
        return new Failed(e);
      }
    }
  }

  /** {@code actions} as Kernel commits them: iterable more than once. */
  private static CloseableIterable<Row> rows(List<Row> actions) {
    return new CloseableIterable<>() {
      @Override
      public CloseableIterator<Row> iterator() {
        Iterator<Row> rows = actions.iterator();
        return new CloseableIterator<>() {
          @Override
          public boolean hasNext() {
            return rows.hasNext();
          }

          @Override
          public Row next() {
            return rows.next();
          }

          @Override
          public void close() {}
        };
      }

      @Override
      public void close() {}
    };
  }
}
