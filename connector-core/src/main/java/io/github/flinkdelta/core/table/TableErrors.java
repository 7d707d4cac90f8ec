package io.github.flinkdelta.core.table;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import java.util.List;

/** Messages for what can go wrong with a table, each saying what happened and what to do. */
final class TableErrors {

  private TableErrors() {}

  static String tableNotFound(String path) {
    return String.format(
        "There is no Delta table at %s. Create it first, or set '%s' to true so the sink creates"
            + " it from its row type.",
        path, DeltaSinkOptions.CREATE_IF_MISSING.key());
  }

  static String schemaMismatch(String path, List<String> problems) {
    return String.format(
        "The rows do not match Delta table %s: %s. Change the query so that its columns match the"
            + " table, or write to another table.",
        path, String.join("; ", problems));
  }

  static String notWritable(String path, Exception cause) {
    return String.format(
        "Cannot write to Delta table location %s (%s: %s). Check the path, the storage"
            + " credentials and the permissions of the user running the job.",
        path, cause.getClass().getSimpleName(), cause.getMessage());
  }

  static String conflict(String path, String appId, long txnVersion, Exception cause) {
    return String.format(
        "Commit to Delta table %s (appId %s, transaction %d) conflicts with a concurrent change"
            + " to the table: %s. The files stay pending and the commit is retried after the job"
            + " restarts; if the table's schema or protocol was changed, restart the job against"
            + " the new schema.",
        path, appId, txnVersion, cause.getMessage());
  }
}
