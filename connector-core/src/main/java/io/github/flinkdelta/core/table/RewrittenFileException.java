package io.github.flinkdelta.core.table;

/**
 * An upsert commit deletes rows in a data file the table no longer has: another writer removed or
 * rewrote the file (a compaction, a {@code DELETE} or {@code MERGE} of another engine) after the
 * sink's key index pointed into it. The commit writes nothing.
 */
public final class RewrittenFileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  RewrittenFileException(String tableName, long version) {
    super(
        String.format(
            "Delta table %s at version %d no longer has a data file whose rows the upsert sink"
                + " updates or deletes: another writer removed or rewrote it after the sink's key"
                + " index pointed into it. Stop other writers that rewrite files of the table"
                + " (compaction, DELETE, UPDATE, MERGE) while the sink runs.",
            tableName, version));
  }
}
