/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.types.RowKind;

/** Messages for failures of the sink that stop the job, each with what to do. */
@Internal
public final class SinkErrors {

  private SinkErrors() {}

  public static String upsertStateOlderThanTable(
      String table, String appId, long restoredCheckpoint, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds the commits of app id %s up to checkpoint %d, but this job"
            + " was restored from checkpoint %d: the restored state is older than the table (an"
            + " older savepoint?). A sink with a primary key cannot write on from older state,"
            + " under this app id or a new one: its key index points at rows the table no longer"
            + " holds. Restore from the latest checkpoint or savepoint, or start the job without"
            + " state (the sink then reads the keys of the table's rows).",
        table, appId, tableTxnVersion, restoredCheckpoint);
  }

  public static String restoredStateOlderThanTable(
      String table, String appId, long restoredCheckpoint, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds the commits of app id %s up to checkpoint %d, but this job"
            + " was restored from checkpoint %d: the restored state is older than the table (an"
            + " older savepoint?). Continuing would skip or repeat data, so the job stops. Restore"
            + " from the latest checkpoint or savepoint instead; or, to write on from this older"
            + " state on purpose, set '%s' to a new value (rows the table holds after checkpoint %d"
            + " are then written again).",
        table,
        appId,
        tableTxnVersion,
        restoredCheckpoint,
        DeltaSinkOptions.APP_ID.key(),
        restoredCheckpoint);
  }

  public static String unalignedCheckpoints(String table) {
    return String.format(
        "The Delta sink for %s does not support unaligned checkpoints: a checkpoint's barrier could"
            + " overtake the data files its writers completed for it, and they would be committed"
            + " with another checkpoint. Disable them (execution.checkpointing.unaligned.enabled:"
            + " false, or do not call enableUnalignedCheckpoints()) for jobs with this sink.",
        table);
  }

  public static String appIdUsedConcurrently(
      String table, String appId, long checkpoint, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds app id %s up to checkpoint %d, which covers checkpoint %d"
            + " this job just took: another job is committing under the same app id. Committing would skip"
            + " this job's rows, so the job stops. Give each job its own '%s' (or leave it unset"
            + " for a fresh one).",
        table, appId, tableTxnVersion, checkpoint, DeltaSinkOptions.APP_ID.key());
  }

  public static String filesOfReplayMissing(
      String table, String appId, long checkpoint, List<String> missing) {
    return String.format(
        "Checkpoint %d (app id %s) restored from state cannot be committed to Delta table %s: %d of"
            + " its data files are gone (%s%s). A vacuum or orphan cleanup with a retention"
            + " shorter than the time the job was down deletes such files; the rows of that"
            + " checkpoint are lost. Restore from a later checkpoint if one exists, and vacuum"
            + " with a retention longer than any downtime of the job.",
        checkpoint,
        appId,
        table,
        missing.size(),
        String.join(", ", missing.subList(0, Math.min(3, missing.size()))),
        missing.size() > 3 ? ", ..." : "");
  }

  public static String appIdAlreadyUsed(String table, String appId, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds commits of app id %s (up to checkpoint %d), but this job"
            + " starts without state. Its checkpoint ids would collide with those commits and its"
            + " data would be skipped, so the job stops. Restore the job from its last checkpoint"
            + " or savepoint, or set '%s' to a new value (or leave it unset for a fresh one).",
        table, appId, tableTxnVersion, DeltaSinkOptions.APP_ID.key());
  }

  public static String commitConflicted(
      String table, String appId, long checkpoint, int attempts, Exception cause) {
    return String.format(
        "Commit of checkpoint %d to Delta table %s (appId %s) conflicts with a concurrent change to"
            + " the table (attempts: %d): %s. The files stay pending and the commit is retried"
            + " after the job restarts; if the table's schema or protocol was changed, restart the"
            + " job against the new schema.",
        checkpoint, table, appId, attempts, withoutFinalPeriod(cause));
  }

  public static String commitFailed(String table, String appId, long checkpoint, Exception cause) {
    return String.format(
        "Commit of checkpoint %d to Delta table %s (appId %s) failed: %s. The files stay pending and"
            + " the commit is retried after the job restarts; its transaction id keeps it from"
            + " being applied twice. If it keeps failing, check the storage and catalog the error"
            + " names, or raise '%s'.",
        checkpoint,
        table,
        appId,
        withoutFinalPeriod(cause),
        DeltaSinkOptions.COMMIT_MAX_RETRIES.key());
  }

  public static String notAnInsert(String table, RowKind kind) {
    return String.format(
        "Delta sink for table %s received a row of kind %s, but it appends and takes INSERT rows"
            + " only: appended, an update or delete would leave the row it changes in the table."
            + " Give the sink the table's primary key (DeltaSinkBuilder.primaryKey, or PRIMARY KEY"
            + " ... NOT ENFORCED in SQL) to take updates and deletes, or send an insert-only"
            + " stream.",
        table, kind);
  }

  public static String indexOutdated(
      String table, String appId, long checkpoint, RuntimeException cause) {
    return String.format(
        "Commit of checkpoint %d to Delta table %s (appId %s) stopped the job: %s The checkpoint's"
            + " rows stay pending in the job's state and nothing was committed. The sink's key"
            + " index no longer matches the table, so the job does not restart on its own.",
        checkpoint, table, appId, cause.getMessage());
  }

  public static String indexNotFollowing(String table, int failures) {
    return String.format(
        "The upsert sink's writer of Delta table %s failed %d times in a row to read the table's"
            + " new versions, which its key index follows; see the cause and the earlier warnings",
        table, failures);
  }

  public static String followNeedsAppId(String table) {
    return String.format(
        "The upsert sink of Delta table %s was restored from state of an earlier connector"
            + " version, and the table's log no longer holds the versions its key index would"
            + " follow. Set 'sink.app-id' to the app id the job commits under (in its log, e.g."
            + " 'Delta sink for %s writes under app id ...'), or start the job without state.",
        table, table);
  }

  public static String rebuildTimedOut(
      String table, String appId, long checkpoint, long committed) {
    return String.format(
        "The upsert sink's writers of Delta table %s waited in vain for the commit of checkpoint"
            + " %d (appId %s) before reading the table's keys anew: the table holds the app id's"
            + " checkpoints up to %d. The committer has not replayed the restored checkpoint; see"
            + " its log.",
        table, checkpoint, appId, committed);
  }

  private static String withoutFinalPeriod(Exception cause) {
    String message = String.valueOf(cause.getMessage());
    return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
  }
}
