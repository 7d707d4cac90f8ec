/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorWriter;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The actions of one upsert commit: the checkpoint's new files, and for every file already in the
 * table whose rows it deletes, a {@code remove} of the file's current entry and an {@code add} of
 * the same file with its new deletion vector (the union of the file's vector and the checkpoint's
 * deletes). New files with deletes of their own are added with a vector at once. A file whose
 * vector would cover every row is removed instead (or, new, not added), so that dead files neither
 * stay in the table nor cost its readers. All vectors of the commit go into one deletion-vector
 * file, written before the commit. Files the writers compacted are removed, and the files written
 * in their place added, with {@code dataChange = false}, only when an earlier connector version
 * handed them on (this version commits a writer's compaction in a version of its own: {@link
 * RewriteCommit}).
 *
 * <p>Remove actions and adds with a vector have no public builder in Kernel 4.4: they are made with
 * its internal action classes (through {@link AddAction}), whose rows the commit takes as they are.
 * The remove and the re-add keep the file's row-tracking fields, as the protocol requires of a file
 * committed again, and the re-add's statistics say {@code tightBounds: false}.
 */
final class UpsertActions {

  private final List<Row> changedFiles;
  private final List<LiveFile> changedEntries;
  private final Map<Long, DeletionVectorDescriptor> newFileVectors;
  private final Set<Long> emptiedNewFiles;
  private final Set<Long> emptied;
  private final List<WrittenVector> vectors;
  private final Set<Long> rewrittenInputs;
  private final Set<Long> rewrittenOutputs;
  private final CloseableIterable<Row> appends;
  private final URI root;
  private final boolean changesSharedIdFiles;
  private final List<LiveFile> addedEntries = new ArrayList<>();

  private UpsertActions(
      List<Row> changedFiles,
      List<LiveFile> changedEntries,
      Map<Long, DeletionVectorDescriptor> newFileVectors,
      Set<Long> emptiedNewFiles,
      Set<Long> emptied,
      List<WrittenVector> vectors,
      FileDeletes deletes,
      CloseableIterable<Row> appends,
      URI root,
      boolean changesSharedIdFiles) {
    this.changedFiles = changedFiles;
    this.changedEntries = changedEntries;
    this.newFileVectors = newFileVectors;
    this.emptiedNewFiles = emptiedNewFiles;
    this.emptied = emptied;
    this.vectors = vectors;
    this.rewrittenInputs = Set.copyOf(deletes.legacyRewrittenInputs());
    this.rewrittenOutputs = Set.copyOf(deletes.legacyRewrittenOutputs());
    this.appends = appends;
    this.root = root;
    this.changesSharedIdFiles = changesSharedIdFiles;
  }

  /**
   * Plans the commit on {@code snapshot}, whose files {@code live} lists, and writes its deletion
   * vectors; {@code written} spares reading back the vectors this committer wrote itself.
   *
   * @param sharedIdDeletes rows to delete in files whose ids another file shares ({@link
   *     LiveFiles#ambiguous}), by the file's path relative to the table root
   * @throws RewrittenFileException when a delete points into a file the snapshot no longer has, or
   *     at a row it deletes already, or a file a writer compacted is gone; nothing is written then
   */
  static UpsertActions plan(
      String tableName,
      Configuration conf,
      Snapshot snapshot,
      LiveFiles live,
      Iterable<DataFile> files,
      CloseableIterable<Row> appends,
      FileDeletes deletes,
      Map<String, RowPositions> sharedIdDeletes,
      WrittenVectors written) {
    String tableRoot = snapshot.getPath();
    DeleteTargets targets =
        DeleteTargets.find(
            tableName, conf, snapshot, live, files, deletes, sharedIdDeletes, written);
    List<Row> changedFiles = new ArrayList<>();
    List<LiveFile> changedEntries = new ArrayList<>();
    Map<Long, DeletionVectorDescriptor> newFileVectors = new HashMap<>();
    Set<Long> emptiedNewFiles = new HashSet<>();
    Set<Long> emptied = new HashSet<>();
    List<WrittenVector> vectors = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (LiveFile file : targets.rewritten()) {
      changedFiles.add(file.removeAction(false, now));
    }
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, tableRoot)) {
      for (DeleteTargets.Touched each : targets.touched()) {
        LiveFile file = each.file();
        RowPositions rows = each.rows();
        changedFiles.add(file.removeAction(true, now));
        if (rows.cardinality() == each.numRecords()) {
          emptied.add(file.id());
          continue;
        }
        DeletionVectorDescriptor vector = writer.write(rows);
        LiveFile changed = file.withVector(vector);
        changedFiles.add(AddAction.addAction(changed.addRow(true)));
        changedEntries.add(changed);
        if (!each.sharedId()) {
          vectors.add(new WrittenVector(file.id(), vector, rows));
        }
      }
      for (Map.Entry<Long, RowPositions> entry : targets.newVectors().entrySet()) {
        long id = entry.getKey();
        if (entry.getValue().cardinality() == targets.newFiles().get(id).numRecords()) {
          emptiedNewFiles.add(id);
          continue;
        }
        DeletionVectorDescriptor vector = writer.write(entry.getValue());
        newFileVectors.put(id, vector);
        vectors.add(new WrittenVector(id, vector, entry.getValue()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the deletion vectors of a commit to Delta table " + tableName, e);
    }
    return new UpsertActions(
        changedFiles,
        changedEntries,
        newFileVectors,
        emptiedNewFiles,
        emptied,
        vectors,
        deletes,
        appends,
        URI.create(tableRoot),
        !sharedIdDeletes.isEmpty());
  }

  /** A vector this commit writes, with its rows. */
  private record WrittenVector(
      long fileId, DeletionVectorDescriptor descriptor, RowPositions rows) {}

  /** The commit's actions; each iteration starts afresh, as Kernel iterates more than once. */
  CloseableIterable<Row> actions() {
    return CommitActions.of(changedFiles, appends, addedEntries::clear, this::withVector);
  }

  /** The ids of the files this commit removed: compacted by the writers, or with no row left. */
  /**
   * Whether the commit re-added or removed a file whose id another file shares, which {@link
   * #changedEntries} and {@link #removedIds} cannot tell apart from it.
   */
  boolean changesSharedIdFiles() {
    return changesSharedIdFiles;
  }

  Set<Long> removedIds() {
    Set<Long> removed = new HashSet<>(rewrittenInputs);
    removed.addAll(emptied);
    return removed;
  }

  /** Tells {@code written} what this commit, now committed, did to the table's vectors. */
  void committedInto(WrittenVectors written) {
    rewrittenInputs.forEach(written::forget);
    emptied.forEach(written::forget);
    for (WrittenVector vector : vectors) {
      written.committed(vector.fileId(), vector.descriptor(), vector.rows());
    }
  }

  /** The files this commit re-added and added, as the next version lists them. */
  List<LiveFile> changedEntries() {
    List<LiveFile> all = new ArrayList<>(changedEntries);
    all.addAll(addedEntries);
    return all;
  }

  /**
   * An append action, with its file's deletion vector when the checkpoint deleted rows in it, and
   * with {@code dataChange = false} when a writer's compaction wrote the file; null for a file
   * whose rows the checkpoint deleted all of, which is left out.
   */
  private Row withVector(Row action) {
    AddAction add = AddAction.inAction(action);
    if (add == null) {
      return action;
    }
    LiveFile entry = LiveFile.of(add, root);
    if (emptiedNewFiles.contains(entry.id())) {
      return null;
    }
    DeletionVectorDescriptor vector = newFileVectors.get(entry.id());
    boolean compacted = rewrittenOutputs.contains(entry.id());
    if (vector == null && !compacted) {
      addedEntries.add(entry);
      return action;
    }
    LiveFile added = vector == null ? entry : entry.withVector(vector);
    addedEntries.add(added);
    return AddAction.addAction(added.addRow(!compacted));
  }
}
