package io.github.flinkdelta.core.table;

/**
 * What became of one commit attempt.
 *
 * @param committed true when this call added the files; false when the table already held a commit
 *     of this app id at this or a later transaction version
 * @param tableVersion the table version that holds the files, or the version the table was at when
 *     the commit was found already done
 * @param tableTxnVersion the table's transaction version for the app id after the call
 */
public record CommitResult(boolean committed, long tableVersion, long tableTxnVersion) {}
