package io.github.flinkdelta.core.table;

/**
 * What became of one commit.
 *
 * @param committed true when this call added the files; false when the table already held a commit
 *     of this app id at this or a later transaction version
 * @param tableVersion the table version that holds the files, or the version the table was at when
 *     the commit was found already done
 * @param tableTxnVersion the table's transaction version for the app id after the call
 * @param retries commit attempts beyond the first: retryable failures Kernel retried, and a commit
 *     tried again after its outcome was unknown
 * @param conflicts times the commit was rebuilt on a newer version after a concurrent commit
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
