/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What became of one commit of files under a transaction (app id, transaction version).
 *
 * <p>{@link Committed} and {@link AlreadyCommitted} leave the files in the table exactly once.
 * After {@link Conflicted} or {@link Failed} the table does not hold them, and the same commit may
 * be tried again: its transaction id keeps a repeat from applying twice.
 */
@Internal
public sealed interface CommitOutcome {

  /**
   * This call added the files (also when its outcome was unknown and the reloaded table holds
   * exactly this transaction version).
   *
   * @param tableVersion the table version that holds the files
   * @param txnVersion the transaction version committed
   * @param retries commit attempts beyond the first, as Kernel counts them (retryable failures,
   *     rebases onto concurrent commits), plus one for an outcome that was unknown and settled
   * @param conflicts times the commit was rebuilt on a newer version after Kernel could not rebase
   *     it onto a concurrent commit
   * @param publishMillis how long publishing (backfilling) the new version took; 0 for path tables
   * @param staleRows deletes of rows another writer had moved or deleted, which the commit settled
   *     by key instead (see {@code DeltaTable#settleStaleDeletesBy}); 0 for most commits
   */
  record Committed(
      long tableVersion,
      long txnVersion,
      int retries,
      int conflicts,
      long publishMillis,
      long staleRows)
      implements CommitOutcome {}

  /**
   * The table already held a commit of this app id at this or a later transaction version; nothing
   * was written.
   *
   * @param tableVersion the table version the table was at
   * @param tableTxnVersion the table's transaction version for the app id
   * @param retries as for {@link Committed#retries()}
   */
  record AlreadyCommitted(long tableVersion, long tableTxnVersion, int retries)
      implements CommitOutcome {}

  /**
   * A concurrent change to the table that the commit cannot be rebuilt onto: the schema changed
   * under it, or concurrent commits kept winning for {@code attempts} attempts.
   */
  record Conflicted(int attempts, RuntimeException cause) implements CommitOutcome {
    public Conflicted {
      Objects.requireNonNull(cause, "cause");
    }
  }

  /**
   * The commit failed and the table does not hold it: retryable failures outlasted the retries, or
   * the failure was not retryable, or an unknown outcome could not be settled.
   */
  record Failed(RuntimeException cause) implements CommitOutcome {
    public Failed {
      Objects.requireNonNull(cause, "cause");
    }
  }
}
