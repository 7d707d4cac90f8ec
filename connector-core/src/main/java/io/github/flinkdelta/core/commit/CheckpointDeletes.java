/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.log.LoggedVersions;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deletes of an upsert checkpoint as they stand on the version its commit is planned on:
 * deletes whose rows another writer moved or deleted are stale and dropped, and, when the committer
 * settles by key, the checkpoint's keys are settled against the rows other writers added ({@link
 * StaleRows}).
 */
final class CheckpointDeletes {

  /** Logged as the upsert committer, whose commits these deletes are planned for. */
  private static final Logger LOG = LoggerFactory.getLogger(UpsertCommitter.class);

  private CheckpointDeletes() {}

  /**
   * The deletes to commit, the rows to delete by path in files whose ids another file shares, and
   * the number of stale deletes dropped.
   */
  record Settlement(
      FileDeletes deletes, Map<String, RowPositions> sharedIdDeletes, long settledRows) {}

  /**
   * Settles {@code deletes} (without rewrites) of checkpoint {@code appId} on {@code snapshot},
   * whose files are {@code live}.
   *
   * @param key the key to settle by; null to refuse stale deletes
   */
  static Settlement settle(
      String tableName,
      Engine engine,
      Configuration conf,
      LoggedVersions log,
      WrittenVectors written,
      KeyColumns key,
      String appId,
      Snapshot snapshot,
      LiveFiles live,
      List<DataFile> files,
      FileDeletes deletes) {
    long settledRows = 0;
    Map<String, RowPositions> sharedIdDeletes = Map.of();
    if (!deletes.isEmpty() || key != null) {
      Set<Long> newFiles = new HashSet<>();
      files.forEach(file -> newFiles.add(FileIds.of(file.path())));
      Map<Long, RowPositions> stale =
          DeleteTargets.stale(tableName, conf, snapshot, live, newFiles, deletes, written);
      Collection<LiveFile> scope =
          ForeignRows.filesSince(log, appId, deletes.indexVersion(), snapshot, live);
      boolean settles =
          !stale.isEmpty() || (scope != null && (!scope.isEmpty() || !live.ambiguous().isEmpty()));
      // Without a key, or without the keys of the deleted rows (state of an earlier version),
      // nothing can be settled: planning refuses stale deletes.
      if (settles && key != null && deletes.deletedKeys().isPresent()) {
        long started = System.nanoTime();
        FileDeletes base = deletes.without(stale);
        long staleRows = stale.values().stream().mapToLong(RowPositions::cardinality).sum();
        // State without an index version: settled against the whole table, as before. Files
        // whose ids another file shares cannot be named by a delete: their keys are settled too,
        // and their rows named by path.
        Collection<LiveFile> against = deletes.indexVersion() >= 0 ? scope : null;
        StaleRows.Settled settled =
            StaleRows.settle(
                engine,
                conf,
                snapshot,
                key,
                files,
                base,
                deletes.deletedKeys().get(),
                against,
                live.ambiguous());
        deletes = settled.deletes();
        sharedIdDeletes = settled.sharedIdFiles();
        settledRows = staleRows;
        LOG.info(
            "Commit of {} (appId {}) settled by key on version {} in {} ms: {} stale deletes"
                + " dropped, {} rows of other writers' {} files deleted",
            tableName,
            appId,
            snapshot.getVersion(),
            (System.nanoTime() - started) / 1_000_000,
            staleRows,
            deletes.count()
                - base.count()
                + sharedIdDeletes.values().stream().mapToLong(RowPositions::cardinality).sum(),
            against == null ? "(whole table)" : against.size() + live.ambiguous().size());
      }
    }
    return new Settlement(deletes, sharedIdDeletes, settledRows);
  }
}
