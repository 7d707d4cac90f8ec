/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.keys;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.keys.TableKeys.KeyFile;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.TableLog;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.KeyChanges.Change;
import io.github.flinkdelta.core.upsert.KeyColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads what a range of versions did to the rows of some keys ({@link KeyChanges}), at a cost
 * proportional to what other writers changed: for each of their versions, only the files it
 * removed, re-added with another deletion vector, or added are read, and of those only the key
 * columns and row positions. Versions of the sink itself are recognised by the transactions they
 * record, from the first bytes of their commit files, and not read further.
 *
 * <p>For a file a version removed, its rows live until then (not in the removed entry's vector) are
 * removed; for a file it re-added, the rows its new vector adds are removed and the rows it leaves
 * out are added back (a restore); for a file it added, its live rows are added, as moved rows when
 * the add says {@code dataChange = false}, else as rows of the other writer.
 */
final class KeyChangeReader {

  private final Engine engine;
  private final Snapshot schema;
  private final Configuration conf;
  private final KeyColumns keys;
  private final Predicate<String> ownKey;
  private final String tableRoot;

  /**
   * @param schema the snapshot whose schema reads the key columns of every file of the range
   * @param ownKey which keys to report: those of the writer's key groups
   */
  KeyChangeReader(
      Engine engine,
      Snapshot schema,
      Configuration conf,
      KeyColumns keys,
      Predicate<String> ownKey) {
    this.engine = engine;
    this.schema = schema;
    this.conf = conf;
    this.keys = keys;
    this.ownKey = ownKey;
    this.tableRoot = schema.getPath();
  }

  /**
   * The changes of the versions after {@code fromVersion} through {@code toVersion}.
   *
   * @param appId the sink's app id; null when unknown, and then every version counts as another
   *     writer's (applying the sink's own rows again changes nothing)
   * @param rewriteAppId the app id of the sink's compactions
   */
  KeyChanges read(
      TableHistory history, long fromVersion, long toVersion, String appId, String rewriteAppId) {
    KeyChanges changes = new KeyChanges(fromVersion, toVersion);
    if (toVersion <= fromVersion) {
      return changes;
    }
    // The sink's own versions are told apart by the first bytes of their commit files.
    Set<String> own = appId == null ? Set.of(rewriteAppId) : Set.of(appId, rewriteAppId);
    for (TableLog.Version version :
        TableLog.read(engine, history, tableRoot, fromVersion + 1, toVersion, own)) {
      changes.startVersion();
      long checkpoint = appId == null ? -1 : version.transactions().getOrDefault(appId, -1L);
      long rewrite = version.transactions().getOrDefault(rewriteAppId, -1L);
      if (checkpoint < 0 && rewrite < 0) {
        readForeign(version, changes);
      }
      changes.endVersion(version.version(), checkpoint, rewrite);
    }
    return changes;
  }

  private void readForeign(TableLog.Version version, KeyChanges changes) {
    Map<Long, TableLog.Added> added = new HashMap<>();
    for (TableLog.Added add : version.added()) {
      added.put(add.file().id(), add);
    }
    List<Pending> removals = new ArrayList<>();
    List<Pending> additions = new ArrayList<>();
    for (TableLog.Removed remove : version.removed()) {
      if (isDeletionVectorFile(remove.relativePath())) {
        // A tombstone of a deletion vector file (as Delta's DROP FEATURE writes them): no rows.
        continue;
      }
      TableLog.Added readd = added.remove(remove.id());
      RowPositions before = vector(remove.vector());
      if (readd == null) {
        KeyFile file =
            new KeyFile(
                remove.relativePath(),
                remove.size(),
                remove.partitionValues(),
                remove.relativePath());
        removals.add(new Pending(file, before, true, Change.REMOVED));
        continue;
      }
      RowPositions after = vector(readd.file().deletionVector());
      KeyFile file = keyFile(readd);
      RowPositions newlyDeleted = after.copy();
      newlyDeleted.removeAll(before);
      if (!newlyDeleted.isEmpty()) {
        removals.add(new Pending(file, newlyDeleted, false, Change.REMOVED));
      }
      RowPositions restored = before.copy();
      restored.removeAll(after);
      if (!restored.isEmpty()) {
        additions.add(
            new Pending(
                file, restored, false, readd.dataChange() ? Change.WRITTEN : Change.MOVED_IN));
      }
    }
    for (TableLog.Added add : added.values()) {
      additions.add(
          new Pending(
              keyFile(add),
              vector(add.file().deletionVector()),
              true,
              add.dataChange() ? Change.WRITTEN : Change.MOVED_IN));
    }
    // Removals first: a row a version moves or rewrites leaves its old place before it is added.
    for (Pending pending : removals) {
      read(pending, changes);
    }
    for (Pending pending : additions) {
      read(pending, changes);
    }
  }

  /**
   * Rows of one file to report.
   *
   * @param positions the positions to report, or, when {@code except}, those not to
   */
  private record Pending(KeyFile file, RowPositions positions, boolean except, Change change) {}

  private void read(Pending pending, KeyChanges changes) {
    TableKeys.scan(
        engine,
        schema,
        keys,
        List.of(pending.file()),
        (key, fileId, position) -> {
          if (pending.positions().contains(position) == pending.except() || !ownKey.test(key)) {
            return;
          }
          changes.add(key, pending.change(), fileId, position);
        });
  }

  /** Whether {@code path} names a file of deletion vectors, as Delta names them. */
  static boolean isDeletionVectorFile(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return name.startsWith("deletion_vector_") && name.endsWith(".bin");
  }

  private static KeyFile keyFile(TableLog.Added add) {
    LiveFiles.LiveFile file = add.file();
    return new KeyFile(file.relativePath(), file.size(), file.partitionValues(), file.path());
  }

  private RowPositions vector(DeletionVectorDescriptor descriptor) {
    if (descriptor == null) {
      return new RowPositions();
    }
    try {
      return DeletionVectorReader.read(conf, tableRoot, descriptor);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read a deletion vector of " + tableRoot + " (" + descriptor.uniqueId() + ")", e);
    }
  }
}
