/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.keys.TableKeys;
import io.github.flinkdelta.core.keys.TableKeys.KeyFile;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Settles an upsert commit's keys by key where positions cannot tell: against the rows other
 * writers added after the writers' key index last looked at the table, and for deletes another
 * writer made stale (it removed or rewrote their file, or deleted their rows).
 *
 * <p>The rule: after the commit, every key the checkpoint touched has exactly the rows the
 * checkpoint wrote for it, or none. The touched keys are those of the checkpoint's new rows (read
 * back from its new files) and those it deleted outright ({@link FileDeletes#deletedKeys}). Every
 * live row of a touched key in the files of the scope is deleted: where another writer moved a
 * key's row (a compaction), the moved row goes; where it wrote the key anew (an {@code INSERT},
 * {@code UPDATE} or {@code MERGE}), the checkpoint's later change wins, as it would have had the
 * other writer come first.
 *
 * <p>The scope is the files other writers added since the index version of the checkpoint: a cost
 * proportional to their change. A checkpoint of state without an index version (an earlier
 * connector version's) is settled against the whole table, and only when a delete is stale.
 */
final class StaleRows {

  private StaleRows() {}

  /**
   * What settling found to delete: rows of files named by id, and rows of files whose id another
   * file shares, named by their paths relative to the table root.
   */
  record Settled(FileDeletes deletes, Map<String, RowPositions> sharedIdFiles) {}

  /**
   * The deletes of a commit of {@code files} onto {@code snapshot}, with every live row of a
   * touched key in {@code scope} and in {@code sharedIdFiles} added.
   *
   * @param deletes the checkpoint's deletes, without the stale ones
   * @param deletedKeys the keys the checkpoint deleted outright
   * @param scope the files to settle against, as the snapshot lists them; null for every file of
   *     the snapshot
   * @param sharedIdFiles the files of the snapshot whose ids another file shares ({@link
   *     LiveFiles#ambiguous}): always settled, and their rows named by path
   */
  static Settled settle(
      Engine engine,
      Configuration conf,
      Snapshot snapshot,
      KeyColumns keys,
      Iterable<DataFile> files,
      FileDeletes deletes,
      List<String> deletedKeys,
      Collection<LiveFile> scope,
      Collection<LiveFile> sharedIdFiles) {
    FileDeletes settled = deletes.without(Map.of());
    Map<String, RowPositions> byPath = new HashMap<>();
    Set<String> touched = new HashSet<>(deletedKeys);
    Set<Long> newFiles = new HashSet<>();
    for (DataFile file : files) {
      newFiles.add(FileIds.of(file.path()));
    }
    Map<Long, RowPositions> byFile = settled.byFile();
    TableKeys.scanFiles(
        engine,
        snapshot,
        keys,
        files,
        (key, fileId, position) -> {
          RowPositions deleted = byFile.get(fileId);
          if (deleted == null || !deleted.contains(position)) {
            touched.add(key);
          }
        });
    if (touched.isEmpty()) {
      return new Settled(settled, byPath);
    }
    Set<Long> shared = new HashSet<>();
    sharedIdFiles.forEach(file -> shared.add(file.id()));
    if (scope == null) {
      TableKeys.scan(
          engine,
          snapshot,
          keys,
          (key, fileId, position) -> {
            if (touched.contains(key) && !newFiles.contains(fileId) && !shared.contains(fileId)) {
              settled.add(fileId, position);
            }
          });
    } else {
      for (LiveFile file : scope) {
        if (!newFiles.contains(file.id()) && !shared.contains(file.id())) {
          scanFile(engine, conf, snapshot, keys, file, touched, settled::add);
        }
      }
    }
    for (LiveFile file : sharedIdFiles) {
      scanFile(
          engine,
          conf,
          snapshot,
          keys,
          file,
          touched,
          (fileId, position) ->
              byPath
                  .computeIfAbsent(file.relativePath(), path -> new RowPositions())
                  .add(position));
    }
    return new Settled(settled, byPath);
  }

  /** Where a row of a touched key is: its file's id and its position. */
  private interface TouchedRow {
    void at(long fileId, long position);
  }

  /** Hands every live row of {@code file} whose key {@code touched} holds to {@code consumer}. */
  private static void scanFile(
      Engine engine,
      Configuration conf,
      Snapshot snapshot,
      KeyColumns keys,
      LiveFile file,
      Set<String> touched,
      TouchedRow consumer) {
    RowPositions deleted = deletedRows(conf, snapshot.getPath(), file);
    TableKeys.scan(
        engine,
        snapshot,
        keys,
        List.of(new KeyFile(file.relativePath(), file.size(), file.partitionValues(), file.path())),
        (key, fileId, position) -> {
          if (touched.contains(key) && !deleted.contains(position)) {
            consumer.at(fileId, position);
          }
        });
  }

  private static RowPositions deletedRows(Configuration conf, String root, LiveFile file) {
    if (file.deletionVector() == null) {
      return new RowPositions();
    }
    try {
      return DeletionVectorReader.read(conf, root, file.deletionVector());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the deletion vector of " + file.path(), e);
    }
  }
}
