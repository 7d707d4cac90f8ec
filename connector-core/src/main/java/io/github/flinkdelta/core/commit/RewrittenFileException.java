/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.github.flinkdelta.core.deletion.RowPositions;
import java.util.Map;
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

  /** The positions of rows no longer live, by file id; not serialized. */
  private final transient Map<Long, RowPositions> stale;

  private RewrittenFileException(String message, Map<Long, RowPositions> stale) {
    super(message);
    this.stale = stale;
  }

  /** The deletes that point at rows the table no longer holds live, by file id. */
  Map<Long, RowPositions> stale() {
    return stale == null ? Map.of() : stale;
  }

  /** The number of stale deletes. */
  long staleRows() {
    return stale().values().stream().mapToLong(RowPositions::cardinality).sum();
  }

  /** This failure, with {@code stale} as its deletes' stale part. */
  static RewrittenFileException of(RewrittenFileException first, Map<Long, RowPositions> stale) {
    return new RewrittenFileException(first.getMessage(), Map.copyOf(stale));
  }

  static RewrittenFileException removed(String tableName, long version) {
    return new RewrittenFileException(
        String.format(
            "Delta table %s at version %d no longer has a data file whose rows the upsert sink"
                + " updates or deletes: another writer removed or rewrote it after the sink's key"
                + " index pointed into it. %s",
            tableName, version, WHAT_TO_DO),
        null);
  }

  static RewrittenFileException rowsDeleted(String tableName, long version, String path) {
    return new RewrittenFileException(
        String.format(
            "In Delta table %s at version %d, another writer deleted rows of data file %s that the"
                + " upsert sink updates or deletes, and may have written their keys anew. %s",
            tableName, version, path, WHAT_TO_DO),
        null);
  }

  private static final String WHAT_TO_DO =
      "The sink settles such deletes by key, but cannot for these: they come from state written"
          + " before the sink kept the keys of deleted rows. Start the job without state and"
          + " replay the pending checkpoint's changes from the source, or stop the other writer"
          + " until the job has committed a checkpoint of this connector version.";
}
