/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.DeletionVectors;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The files of the table that a checkpoint's deletes touch, as a snapshot holds them: the
 * checkpoint's own new files with rows deleted, the table's files with their new vector's rows
 * (their old vector's rows and the checkpoint's), files whose id another file shares, and the
 * inputs of a rewrite of the legacy kind. Finding them checks every delete against the snapshot: a
 * delete of a row the snapshot no longer holds (its file removed, or the row deleted by another
 * writer) makes them unfit, and {@link #find} throws {@link RewrittenFileException} naming all such
 * deletes, for the commit to settle and plan again.
 *
 * @param newFiles the checkpoint's new files that it deletes rows of, by id
 * @param newVectors the rows deleted in each of those, by id
 * @param touched the table's files whose rows the checkpoint deletes
 * @param rewritten the inputs of a legacy rewrite the commit removes
 */
record DeleteTargets(
    Map<Long, DataFile> newFiles,
    Map<Long, RowPositions> newVectors,
    List<Touched> touched,
    List<LiveFile> rewritten) {

  static DeleteTargets find(
      String tableName,
      Configuration conf,
      Snapshot snapshot,
      LiveFiles live,
      Iterable<DataFile> files,
      FileDeletes deletes,
      Map<String, RowPositions> sharedIdDeletes,
      WrittenVectors written) {
    Map<Long, DataFile> newFiles = newFilesDeletedFrom(files, deletes);
    Map<Long, RowPositions> newVectors = new HashMap<>();
    List<Touched> touched = new ArrayList<>();
    Stale stale = new Stale();
    for (Map.Entry<Long, RowPositions> entry : deletes.byFile().entrySet()) {
      DataFile created = newFiles.get(entry.getKey());
      if (created != null) {
        checkPositions(tableName, created.path(), entry.getValue(), created.numRecords());
        newVectors.put(entry.getKey(), entry.getValue());
        continue;
      }
      Touched file =
          touch(tableName, conf, snapshot, live.get(entry.getKey()), entry, written, stale);
      if (file != null) {
        touched.add(file);
      }
    }
    touched.addAll(sharedIdFiles(tableName, conf, snapshot.getPath(), live, sharedIdDeletes));
    List<LiveFile> rewritten = legacyRewrites(tableName, snapshot, live, deletes, stale);
    stale.throwIfAny();
    return new DeleteTargets(newFiles, newVectors, touched, rewritten);
  }

  /** The checkpoint's own files that it deletes rows of, by id. */
  private static Map<Long, DataFile> newFilesDeletedFrom(
      Iterable<DataFile> files, FileDeletes deletes) {
    Map<Long, DataFile> newFiles = new HashMap<>();
    // Decoding the checkpoint's files is needed only to find those it deletes rows of.
    for (DataFile file : deletes.isEmpty() ? List.<DataFile>of() : files) {
      long id = FileIds.of(file.path());
      if (deletes.byFile().containsKey(id)) {
        newFiles.put(id, file);
      }
    }
    return newFiles;
  }

  /**
   * The table's file {@code file} with the rows of {@code deleted} added to its vector, or null
   * when the delete is stale (the file is gone, or another writer deleted one of its rows).
   */
  private static Touched touch(
      String tableName,
      Configuration conf,
      Snapshot snapshot,
      LiveFile file,
      Map.Entry<Long, RowPositions> deleted,
      WrittenVectors written,
      Stale stale) {
    if (file == null) {
      stale.add(
          deleted.getKey(),
          deleted.getValue(),
          RewrittenFileException.removed(tableName, snapshot.getVersion()));
      return null;
    }
    long numRecords = DeletionVectors.numRecords(file.statsJson());
    if (numRecords < 0) {
      throw new IllegalStateException(
          String.format(
              "Data file %s of Delta table %s has no numRecords statistic, which a file with a"
                  + " deletion vector must have; its rows cannot be updated or deleted",
              file.path(), tableName));
    }
    RowPositions union = existingVector(tableName, conf, snapshot.getPath(), file, written);
    RowPositions deletedBefore = union.intersection(deleted.getValue());
    if (!deletedBefore.isEmpty()) {
      // The index points at rows some other writer deleted: it may have written their keys anew
      // elsewhere (an UPDATE or MERGE), which this commit would double.
      stale.add(
          deleted.getKey(),
          deletedBefore,
          RewrittenFileException.rowsDeleted(tableName, snapshot.getVersion(), file.path()));
      return null;
    }
    union.addAll(deleted.getValue());
    checkPositions(tableName, file.path(), union, numRecords);
    return new Touched(file, union, numRecords, false);
  }

  /** The files whose id another file shares, with the rows settled in them by path. */
  private static List<Touched> sharedIdFiles(
      String tableName,
      Configuration conf,
      String tableRoot,
      LiveFiles live,
      Map<String, RowPositions> sharedIdDeletes) {
    Map<String, LiveFile> byPath = new HashMap<>();
    live.ambiguous().forEach(file -> byPath.put(file.relativePath(), file));
    List<Touched> touched = new ArrayList<>();
    for (Map.Entry<String, RowPositions> entry : sharedIdDeletes.entrySet()) {
      LiveFile file = byPath.get(entry.getKey());
      if (file == null) {
        throw new IllegalStateException(
            "Settled rows of data file " + entry.getKey() + " of " + tableName + " it lacks");
      }
      // Never the vectors this committer wrote: they are kept by id, which tells no path.
      RowPositions union = existingVector(tableName, conf, tableRoot, file, null);
      union.addAll(entry.getValue());
      long numRecords = DeletionVectors.numRecords(file.statsJson());
      checkPositions(tableName, file.path(), union, numRecords);
      touched.add(new Touched(file, union, numRecords, true));
    }
    return touched;
  }

  /** The inputs of a legacy rewrite the commit removes; null for one another writer removed. */
  private static List<LiveFile> legacyRewrites(
      String tableName, Snapshot snapshot, LiveFiles live, FileDeletes deletes, Stale stale) {
    List<LiveFile> rewritten = new ArrayList<>();
    for (long input : deletes.legacyRewrittenInputs()) {
      LiveFile file = live.get(input);
      if (deletes.byFile().containsKey(input)) {
        throw new IllegalStateException(
            String.format(
                "A commit to Delta table %s both deletes rows of data file %s and removes it as"
                    + " compacted: the sink's key index does not match the table",
                tableName, file == null ? Long.toHexString(input) : file.path()));
      }
      if (file == null) {
        // Another writer removed it first (a compaction of its own): the rewrite cannot land.
        stale.reason(RewrittenFileException.removed(tableName, snapshot.getVersion()));
      }
      rewritten.add(file);
    }
    return rewritten;
  }

  /** The deletes of rows the snapshot no longer holds, and the first reason one was found. */
  private static final class Stale {
    private final Map<Long, RowPositions> rows = new HashMap<>();
    private RewrittenFileException first;

    void add(long fileId, RowPositions positions, RewrittenFileException reason) {
      rows.put(fileId, positions);
      reason(reason);
    }

    void reason(RewrittenFileException reason) {
      if (first == null) {
        first = reason;
      }
    }

    void throwIfAny() {
      if (first != null) {
        throw RewrittenFileException.of(first, rows);
      }
    }
  }

  /**
   * The deletes of {@code deletes} that point at rows {@code live} no longer holds: in a file it
   * does not list (another writer removed it), or already deleted by the file's vector. Deletes in
   * the commit's own new files {@code newFiles} are never stale.
   */
  static Map<Long, RowPositions> stale(
      String tableName,
      Configuration conf,
      Snapshot snapshot,
      LiveFiles live,
      Set<Long> newFiles,
      FileDeletes deletes,
      WrittenVectors written) {
    Map<Long, RowPositions> stale = new HashMap<>();
    for (Map.Entry<Long, RowPositions> entry : deletes.byFile().entrySet()) {
      if (newFiles.contains(entry.getKey())) {
        continue;
      }
      LiveFile file = live.get(entry.getKey());
      if (file == null) {
        stale.put(entry.getKey(), entry.getValue());
        continue;
      }
      RowPositions deletedBefore =
          existingVector(tableName, conf, snapshot.getPath(), file, written)
              .intersection(entry.getValue());
      if (!deletedBefore.isEmpty()) {
        stale.put(entry.getKey(), deletedBefore);
      }
    }
    return stale;
  }

  static RowPositions existingVector(
      String tableName,
      Configuration conf,
      String tableRoot,
      LiveFile file,
      WrittenVectors written) {
    if (file.deletionVector() == null) {
      return new RowPositions();
    }
    RowPositions known = written == null ? null : written.rowsOf(file.id(), file.deletionVector());
    if (known != null) {
      return known;
    }
    try {
      return DeletionVectorReader.read(conf, tableRoot, file.deletionVector());
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format(
              "Cannot read the deletion vector of data file %s of Delta table %s",
              file.path(), tableName),
          e);
    }
  }

  private static void checkPositions(
      String tableName, String path, RowPositions positions, long numRecords) {
    if (!positions.isEmpty() && positions.last() >= numRecords) {
      throw new IllegalStateException(
          String.format(
              "A delete in data file %s of Delta table %s points at row %d, but the file has %d"
                  + " rows: the sink's key index does not match the table",
              path, tableName, positions.last(), numRecords));
    }
  }

  /**
   * A file of the table whose rows the commit deletes, with its new vector's rows; {@code sharedId}
   * when another file of the table has its id.
   */
  record Touched(LiveFile file, RowPositions rows, long numRecords, boolean sharedId) {}
}
