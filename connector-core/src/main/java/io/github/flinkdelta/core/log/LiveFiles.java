/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectors;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.flink.annotation.Internal;

/**
 * The data files of one table version by {@link FileIds id}, each as its add action describes it:
 * what an upsert commit needs to re-add a file with a new deletion vector. Built by one scan of the
 * version and then carried forward by the committer's own commits, so that a stream of commits does
 * not scan the table each time.
 *
 * <p>Kernel's scan files carry the add action's fields, and its {@code stats} only through {@code
 * Scan.getScanFiles(engine, true)} of Kernel 4.4; the fields are read through {@link AddAction},
 * which names them as the protocol does (UpsertITCase fails when either changes).
 */
@Internal
public final class LiveFiles {

  private final long version;
  private final Map<Long, LiveFile> files;

  /**
   * Files whose paths share an id (by chance, or made so by a writer): no delete can name one of
   * them by id, so they are left out of {@link #files} and settled by key ({@link #ambiguous}).
   */
  private final Map<Long, Map<String, LiveFile>> shared;

  private LiveFiles(
      long version, Map<Long, LiveFile> files, Map<Long, Map<String, LiveFile>> shared) {
    this.version = version;
    this.files = files;
    this.shared = shared;
  }

  /** The files of {@code snapshot}. */
  public static LiveFiles of(Engine engine, Snapshot snapshot, String tableName) {
    LiveFiles live = new LiveFiles(snapshot.getVersion(), new HashMap<>(), new HashMap<>());
    scan(engine, snapshot, tableName, (file, scanFile) -> live.put(file));
    return live;
  }

  /**
   * Hands every data file of {@code snapshot} to {@code consumer}, with its scan file row (which
   * reading the file's rows through Kernel takes).
   */
  public static void scan(
      Engine engine, Snapshot snapshot, String tableName, BiConsumer<LiveFile, Row> consumer) {
    URI root = URI.create(snapshot.getPath());
    Scan scan = snapshot.getScanBuilder().build();
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            Row scanFile = rows.next();
            Row add = scanFile.getStruct(scanFile.getSchema().indexOf("add"));
            consumer.accept(LiveFile.of(AddAction.of(add), root), scanFile);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + tableName, e);
    }
  }

  private LiveFiles copy(long newVersion) {
    Map<Long, Map<String, LiveFile>> sharedCopy = new HashMap<>();
    shared.forEach((id, byPath) -> sharedCopy.put(id, new HashMap<>(byPath)));
    return new LiveFiles(newVersion, new HashMap<>(files), sharedCopy);
  }

  private void put(LiveFile file) {
    long id = file.id();
    Map<String, LiveFile> clash = shared.get(id);
    if (clash != null) {
      clash.put(file.path(), file);
      return;
    }
    LiveFile other = files.get(id);
    if (other != null && !other.path().equals(file.path())) {
      files.remove(id);
      Map<String, LiveFile> byPath = new HashMap<>();
      byPath.put(other.path(), other);
      byPath.put(file.path(), file);
      shared.put(id, byPath);
      return;
    }
    files.put(id, file);
  }

  private void remove(long id, String path) {
    Map<String, LiveFile> clash = shared.get(id);
    if (clash == null) {
      files.remove(id);
      return;
    }
    clash.values().removeIf(file -> file.relativePath().equals(path));
    if (clash.size() == 1) {
      shared.remove(id);
      files.put(id, clash.values().iterator().next());
    }
  }

  /** The version the files are of. */
  public long version() {
    return version;
  }

  /** The file of {@code id}; null when the version has none, or several ({@link #ambiguous}). */
  public LiveFile get(long id) {
    return files.get(id);
  }

  /**
   * The files whose paths share an id with another file's: a delete that names such an id is stale,
   * and the commit settles its key against all of them.
   */
  public List<LiveFile> ambiguous() {
    List<LiveFile> all = new ArrayList<>();
    shared.values().forEach(byPath -> all.addAll(byPath.values()));
    return all;
  }

  /**
   * The files after this version's next commit, which re-added or added the {@code changed} files
   * and removed the files of the {@code removed} ids.
   */
  public LiveFiles next(long committedVersion, Iterable<LiveFile> changed, Set<Long> removed) {
    LiveFiles next = copy(committedVersion);
    // The commit removed only files it named by id, none of which is ambiguous.
    next.files.keySet().removeAll(removed);
    for (LiveFile file : changed) {
      // A re-added file replaces its entry; a new file whose id another file has shares it.
      LiveFile current = next.files.get(file.id());
      if (current != null && current.path().equals(file.path())) {
        next.files.remove(file.id());
      }
      next.put(file);
    }
    return next;
  }

  /**
   * The files after {@code versions}, the versions that follow this one in order, as their actions
   * say: each version's removes first, then its adds.
   */
  public LiveFiles after(List<TableLog.Version> versions, String tableName) {
    LiveFiles after = copy(version);
    long last = version;
    for (TableLog.Version next : versions) {
      if (next.version() != last + 1) {
        throw new IllegalArgumentException(
            "Versions " + last + " and " + next.version() + " of " + tableName + " do not follow");
      }
      next.removed().forEach(removed -> after.remove(removed.id(), removed.relativePath()));
      next.added().forEach(added -> after.put(added.file()));
      last = next.version();
    }
    return new LiveFiles(last, after.files, after.shared);
  }

  /**
   * One data file of the table, as its add action holds it.
   *
   * @param path the path as the add action writes it
   * @param relativePath the path relative to the table root, decoded
   * @param statsJson the file's statistics, or null when the action has none
   * @param deletionVector the file's deletion vector, or null
   * @param tags the action's tags, or null
   * @param baseRowId the first row id, or null without row tracking
   * @param defaultRowCommitVersion the version of its rows, or null without row tracking
   */
  public record LiveFile(
      String path,
      String relativePath,
      Map<String, String> partitionValues,
      long size,
      long modificationTime,
      String statsJson,
      DeletionVectorDescriptor deletionVector,
      Map<String, String> tags,
      Long baseRowId,
      Long defaultRowCommitVersion) {

    public long id() {
      return FileIds.of(relativePath);
    }

    /**
     * The file with a new deletion vector: its statistics are no longer tight bounds, and
     * everything else stays.
     */
    public LiveFile withVector(DeletionVectorDescriptor vector) {
      return new LiveFile(
          path,
          relativePath,
          partitionValues,
          size,
          modificationTime,
          DeletionVectors.withWideBounds(statsJson),
          vector,
          tags,
          baseRowId,
          defaultRowCommitVersion);
    }

    /** The add action of this entry, as a commit of it writes it. */
    public Row addRow(boolean dataChange) {
      return AddAction.row(
          path,
          partitionValues,
          size,
          modificationTime,
          dataChange,
          deletionVector,
          tags,
          baseRowId,
          defaultRowCommitVersion,
          statsJson == null
              ? null
              : new SerializedStatistics(
                  Math.max(0, DeletionVectors.numRecords(statsJson)), statsJson));
    }

    /**
     * The action that removes this entry at {@code timestamp}, keeping its deletion vector and
     * row-tracking fields.
     */
    public Row removeAction(boolean dataChange, long timestamp) {
      return AddAction.removeAction(addRow(dataChange), dataChange, timestamp);
    }

    /** The entry of the file {@code add} adds to the table at {@code tableRoot}. */
    public static LiveFile of(AddAction add, URI tableRoot) {
      return new LiveFile(
          add.path(),
          FileIds.relativePath(add.path(), tableRoot),
          add.partitionValues(),
          add.size(),
          add.modificationTime(),
          add.statsJson().orElse(null),
          add.deletionVector().orElse(null),
          add.tags().orElse(null),
          add.baseRowId().orElse(null),
          add.defaultRowCommitVersion().orElse(null));
    }
  }
}
