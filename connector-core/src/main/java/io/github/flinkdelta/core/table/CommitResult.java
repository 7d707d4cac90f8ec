package io.github.flinkdelta.core.table;

/**
 * What became of one commit.
 *
 * @param committed true when this call added the files (also when its outcome was unknown and the
 *     reloaded table holds exactly this transaction version); false when the table already held a
 *     commit of this app id at this or a later transaction version
 * @param tableVersion the table version that holds the files (after an unknown outcome, the version
 *     of the reloaded table, which holds them), or the version the table was at when the commit was
 *     found already done
 * @param tableTxnVersion the table's transaction version for the app id after the call
 * @param retries commit attempts beyond the first, as Kernel counts them (retryable failures, and
 *     rebases onto concurrent commits), plus one for a commit whose outcome was unknown
 * @param conflicts times the commit was rebuilt from scratch on a newer version after Kernel could
 *     not rebase it onto a concurrent commit
 * @param publishMillis how long publishing (backfilling) the new version took; 0 for path tables
 */
public record CommitResult(
    boolean committed,
    long tableVersion,
    long tableTxnVersion,
    int retries,
    int conflicts,
    long publishMillis) {

  static CommitResult alreadyCommitted(long tableVersion, long tableTxnVersion) {
    return new CommitResult(false, tableVersion, tableTxnVersion, 0, 0, 0);
  }

  CommitResult plusRetry() {
    return new CommitResult(
        committed, tableVersion, tableTxnVersion, retries + 1, conflicts, publishMillis);
  }

  CommitResult withConflicts(int count) {
    return new CommitResult(
        committed, tableVersion, tableTxnVersion, retries, count, publishMillis);
  }
}
