package io.github.flinkdelta.core.table;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The data files of one table version by {@link FileIds id}, each as its add action describes it:
 * what an upsert commit needs to re-add a file with a new deletion vector. Built by one scan of the
 * version and then carried forward by the committer's own commits, so that a stream of commits does
 * not scan the table each time.
 *
 * <p>Kernel's scan files carry the add action's fields, and its {@code stats} only through {@code
 * Scan.getScanFiles(engine, true)} of Kernel 4.4; the fields are read through Kernel's internal
 * {@link AddFile}, which names them as the protocol does (UpsertITCase fails when either changes).
 */
final class LiveFiles {

  private final long version;
  private final Map<Long, LiveFile> files;

  private LiveFiles(long version, Map<Long, LiveFile> files) {
    this.version = version;
    this.files = files;
  }

  /** The files of {@code snapshot}. */
  static LiveFiles of(Engine engine, Snapshot snapshot, String tableName) {
    Map<Long, LiveFile> files = new HashMap<>();
    scan(engine, snapshot, tableName, (file, scanFile) -> put(files, file, tableName));
    return new LiveFiles(snapshot.getVersion(), files);
  }

  /**
   * Hands every data file of {@code snapshot} to {@code consumer}, with its scan file row (which
   * reading the file's rows through Kernel takes).
   */
  static void scan(
      Engine engine, Snapshot snapshot, String tableName, BiConsumer<LiveFile, Row> consumer) {
    URI root = URI.create(snapshot.getPath());
    Scan scan = snapshot.getScanBuilder().build();
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            Row scanFile = rows.next();
            Row add = scanFile.getStruct(scanFile.getSchema().indexOf("add"));
            consumer.accept(LiveFile.of(new AddFile(add), root), scanFile);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + tableName, e);
    }
  }

  private static void put(Map<Long, LiveFile> files, LiveFile file, String tableName) {
    LiveFile other = files.put(file.id(), file);
    if (other != null && !other.path().equals(file.path())) {
      throw new IllegalStateException(
          String.format(
              "Delta table %s has two data files of one id, %s and %s: the upsert sink cannot"
                  + " tell their rows apart. Rename one of the files.",
              tableName, other.path(), file.path()));
    }
  }

  /** The version the files are of. */
  long version() {
    return version;
  }

  /** The file of {@code id}, or null when the version has none. */
  LiveFile get(long id) {
    return files.get(id);
  }

  /**
   * The files after this version's next commit, which re-added or added the {@code changed} files
   * and removed the files of the {@code removed} ids.
   */
  LiveFiles next(
      long committedVersion, Iterable<LiveFile> changed, Set<Long> removed, String tableName) {
    Map<Long, LiveFile> after = new HashMap<>(files);
    after.keySet().removeAll(removed);
    for (LiveFile file : changed) {
      after.remove(file.id());
      put(after, file, tableName);
    }
    return new LiveFiles(committedVersion, after);
  }

  /**
   * The files after {@code versions}, the versions that follow this one in order, as their actions
   * say: each version's removes first, then its adds.
   */
  LiveFiles after(List<TableLog.Version> versions, String tableName) {
    Map<Long, LiveFile> after = new HashMap<>(files);
    long last = version;
    for (TableLog.Version next : versions) {
      if (next.version() != last + 1) {
        throw new IllegalArgumentException(
            "Versions " + last + " and " + next.version() + " of " + tableName + " do not follow");
      }
      next.removed().forEach(removed -> after.remove(removed.id()));
      next.added().forEach(added -> put(after, added.file(), tableName));
      last = next.version();
    }
    return new LiveFiles(last, after);
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
  record LiveFile(
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

    long id() {
      return FileIds.of(relativePath);
    }

    /**
     * The file with a new deletion vector: its statistics are no longer tight bounds, and
     * everything else stays.
     */
    LiveFile withVector(DeletionVectorDescriptor vector) {
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
    Row addRow(boolean dataChange) {
      return AddFile.createAddFileRow(
          null,
          path,
          VectorUtils.stringStringMapValue(partitionValues),
          size,
          modificationTime,
          dataChange,
          Optional.ofNullable(deletionVector).map(DeletionVectors::toKernel),
          Optional.ofNullable(tags).map(VectorUtils::stringStringMapValue),
          Optional.ofNullable(baseRowId),
          Optional.ofNullable(defaultRowCommitVersion),
          Optional.ofNullable(statsJson)
              .map(
                  stats ->
                      new SerializedStatistics(
                          Math.max(0, DeletionVectors.numRecords(stats)), stats)));
    }

    /**
     * The action that removes this entry at {@code timestamp}, keeping its deletion vector and
     * row-tracking fields.
     */
    Row removeAction(boolean dataChange, long timestamp) {
      return SingleAction.createRemoveFileSingleAction(
          new AddFile(addRow(dataChange)).toRemoveFileRow(dataChange, Optional.of(timestamp)));
    }

    static LiveFile of(AddFile add, URI tableRoot) {
      return new LiveFile(
          add.getPath(),
          FileIds.relativePath(add.getPath(), tableRoot),
          VectorUtils.toJavaMap(add.getPartitionValues()),
          add.getSize(),
          add.getModificationTime(),
          add.getStatsJson().orElse(null),
          add.getDeletionVector().map(DeletionVectors::fromKernel).orElse(null),
          add.getTags().map(VectorUtils::<String, String>toJavaMap).orElse(null),
          add.getBaseRowId().orElse(null),
          add.getDefaultRowCommitVersion().orElse(null));
    }
  }
}
