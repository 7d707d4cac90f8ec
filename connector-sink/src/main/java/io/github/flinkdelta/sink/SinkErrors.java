package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.uc.UcTableName;
import io.github.flinkdelta.uc.UnityCatalogConnection;

/** Messages for failures of the sink that stop the job, each with what to do. */
final class SinkErrors {

  private SinkErrors() {}

  static String restoredStateOlderThanTable(
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

  static String appIdUsedConcurrently(
      String table, String appId, long checkpoint, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds app id %s up to checkpoint %d, which covers checkpoint %d"
            + " this job just took: another job is committing under the same app id. Committing would skip"
            + " this job's rows, so the job stops. Give each job its own '%s' (or leave it unset"
            + " for a fresh one).",
        table, appId, tableTxnVersion, checkpoint, DeltaSinkOptions.APP_ID.key());
  }

  static String appIdAlreadyUsed(String table, String appId, long tableTxnVersion) {
    return String.format(
        "Delta table %s already holds commits of app id %s (up to checkpoint %d), but this job"
            + " starts without state. Its checkpoint ids would collide with those commits and its"
            + " data would be skipped, so the job stops. Restore the job from its last checkpoint"
            + " or savepoint, or set '%s' to a new value (or leave it unset for a fresh one).",
        table, appId, tableTxnVersion, DeltaSinkOptions.APP_ID.key());
  }

  static String unityCatalogTableMissing(UcTableName name, UnityCatalogConnection connection) {
    return String.format(
        "Unity Catalog at %s has no table %s. Create it, or enable '%s' to create it as a"
            + " managed table from the sink's row type.",
        connection.endpoint(), name, DeltaSinkOptions.CREATE_IF_MISSING.key());
  }
}
