package io.github.flinkdelta.core.table;

import org.apache.flink.annotation.Internal;

/**
 * An upsert commit would delete rows that another writer changed after the sink's key index pointed
 * at them: it removed or rewrote their data file (a compaction, a {@code DELETE}, {@code UPDATE} or
 * {@code MERGE} of another engine), or deleted the rows with a deletion vector of its own. The
 * commit writes nothing: applied, it could leave a key twice.
 */
@Internal
public final class RewrittenFileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private RewrittenFileException(String message) {
    super(message);
  }

  static RewrittenFileException removed(String tableName, long version) {
    return new RewrittenFileException(
        String.format(
            "Delta table %s at version %d no longer has a data file whose rows the upsert sink"
                + " updates or deletes: another writer removed or rewrote it after the sink's key"
                + " index pointed into it. %s",
            tableName, version, WHAT_TO_DO));
  }

  static RewrittenFileException rowsDeleted(String tableName, long version, String path) {
    return new RewrittenFileException(
        String.format(
            "In Delta table %s at version %d, another writer deleted rows of data file %s that the"
                + " upsert sink updates or deletes, and may have written their keys anew. %s",
            tableName, version, path, WHAT_TO_DO));
  }

  private static final String WHAT_TO_DO =
      "Stop other writers that change rows of the table (compaction, DELETE, UPDATE, MERGE) while"
          + " the sink runs.";
}
