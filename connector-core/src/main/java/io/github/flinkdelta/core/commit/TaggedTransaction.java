/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.kernel.TransactionAction;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import org.apache.flink.annotation.Internal;

/**
 * A transaction on one table tagged with a transaction id ({@code appId}, {@code txnVersion}),
 * which must be newer than the app's last one in the table.
 *
 * <p>Kernel's builder checks that by reading the log back to the app's last commit: one commit file
 * parsed whole for every commit. When the held snapshot is the one this process's own last commit
 * of the app left ({@link SnapshotCache#ownTransactionVersion}), the check needs no read, and the
 * tag goes into the commit as its first action instead of through the builder. Such a transaction
 * never rebases (Kernel checks a rebase against the builder's tag only): it commits at the next
 * version or fails, and the caller reloads and settles the outcome by the transaction id.
 *
 * @param txn the transaction
 * @param tag the transaction action to commit first, when the builder does not hold it
 */
@Internal
record TaggedTransaction(Transaction txn, Optional<Row> tag) {

  /**
   * Starts a transaction on {@code snapshot}, the snapshot {@code snapshots} holds.
   *
   * @param maxRetries the rebases allowed when the builder holds the tag
   * @throws ConcurrentTransactionException when the table holds {@code txnVersion} or a later one
   */
  static TaggedTransaction start(
      Engine engine,
      SnapshotCache snapshots,
      Snapshot snapshot,
      Operation operation,
      String appId,
      long txnVersion,
      int maxRetries) {
    OptionalLong own = snapshots.ownTransactionVersion(appId);
    if (own.isEmpty()) {
      Transaction txn =
          snapshot
              .buildUpdateTableTransaction(TableReference.ENGINE_INFO, operation)
              .withTransactionId(appId, txnVersion)
              .withMaxRetries(maxRetries)
              .build(engine);
      return new TaggedTransaction(txn, Optional.empty());
    }
    if (own.getAsLong() >= txnVersion) {
      throw new ConcurrentTransactionException(appId, txnVersion, own.getAsLong());
    }
    Transaction txn =
        snapshot
            .buildUpdateTableTransaction(TableReference.ENGINE_INFO, operation)
            .withMaxRetries(0)
            .build(engine);
    Row tag = TransactionAction.of(appId, txnVersion, System.currentTimeMillis());
    return new TaggedTransaction(txn, Optional.of(tag));
  }

  /** Whether the commit may rebase onto other writers' commits. */
  boolean rebases() {
    return tag.isEmpty();
  }

  /** {@code actions}, after the tag when the builder does not hold it. */
  CloseableIterable<Row> actions(CloseableIterable<Row> actions) {
    return tag.isEmpty()
        ? actions
        : CommitActions.of(List.of(tag.get()), actions, () -> {}, UnaryOperator.identity());
  }
}
