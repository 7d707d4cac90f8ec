/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.log.LoggedVersions;
import io.github.flinkdelta.core.log.TableLog;
import io.github.flinkdelta.core.upsert.UpsertTables;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the rows are that other writers added after an upsert writer's key index last looked at the
 * table: what a commit settles its keys against ({@link StaleRows}).
 */
final class ForeignRows {

  private ForeignRows() {}

  /**
   * The files of {@code snapshot} holding rows that versions of other writers after {@code
   * indexVersion} added: new files, and files whose rows a version restored. Null when the index
   * version is unknown.
   *
   * @param appId the sink's app id, whose versions (and its compactions') are not another writer's
   */
  static Collection<LiveFile> filesSince(
      LoggedVersions log, String appId, long indexVersion, Snapshot snapshot, LiveFiles live) {
    if (indexVersion < 0) {
      return null;
    }
    if (indexVersion >= snapshot.getVersion()) {
      return List.of();
    }
    Map<Long, LiveFile> scope = new LinkedHashMap<>();
    for (TableLog.Version version :
        log.notCommittedBy(
            indexVersion,
            snapshot.getVersion(),
            List.of(appId, UpsertTables.rewriteAppId(appId)))) {
      Map<Long, TableLog.Removed> removed = new HashMap<>();
      version.removed().forEach(remove -> removed.put(remove.id(), remove));
      for (TableLog.Added added : version.added()) {
        TableLog.Removed before = removed.get(added.file().id());
        boolean restores =
            before != null
                && (before.vector() == null ? 0 : before.vector().cardinality())
                    > (added.file().deletionVector() == null
                        ? 0
                        : added.file().deletionVector().cardinality());
        LiveFile current = live.get(added.file().id());
        if ((before == null || restores) && current != null) {
          scope.put(current.id(), current);
        }
      }
    }
    return scope.values();
  }
}
