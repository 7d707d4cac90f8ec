/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.commit.SnapshotCache;
import io.github.flinkdelta.core.commit.TableCommitter;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.MovedRowConsumer;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The maintenance of one open table: compactions, run at once or prepared on one thread and
 * committed on another, through the table's committer ({@link TableCompaction}); vacuums ({@link
 * TableVacuum}); and the check for data files a vacuum removed.
 */
@Internal
public final class TableMaintenance {

  private final String name;
  private final String path;
  private final Engine engine;
  private final SnapshotCache snapshots;
  private final TableCommitter committer;
  private final Configuration storageConf;
  private final Supplier<TableHistory> history;

  /**
   * The maintenance of table {@code name} at {@code path}, whose snapshots {@code snapshots} holds
   * and whose commits {@code committer} makes.
   *
   * @param history the table's versions as a reader sees them, opened when first needed
   */
  public TableMaintenance(
      String name,
      String path,
      Engine engine,
      SnapshotCache snapshots,
      TableCommitter committer,
      Configuration storageConf,
      Supplier<TableHistory> history) {
    this.name = name;
    this.path = path;
    this.engine = engine;
    this.snapshots = snapshots;
    this.committer = committer;
    this.storageConf = storageConf;
    this.history = history;
  }

  /**
   * Compacts the table once: small files, and files with many deleted rows, rewritten per partition
   * into files near the target size, in one version with {@code dataChange = false} (see {@link
   * TableCompaction} for what happens when another writer commits meanwhile).
   *
   * @param appId the transaction id the rewrite commits under; each run's version is the table
   *     version it planned on
   */
  public CompactionResult compact(CompactionOptions options, String appId) {
    return compaction().run(options, writeOptionsFor(options), appId);
  }

  /**
   * Plans a compaction on the latest version and writes its files, without committing them.
   *
   * @param writeOptions how the new files are written; their target size is the compaction's
   * @return empty when nothing is worth rewriting
   */
  public Optional<PreparedCompaction> prepareCompaction(
      CompactionOptions options, FileWriteOptions writeOptions) {
    return compaction().prepare(options, writeOptions);
  }

  /**
   * Plans a compaction of an upsert sink writer's own files, those whose path (relative to the
   * table root) {@code ownFile} accepts, on version {@code version} (one the writer's key index has
   * taken in; the latest when it is later), and writes its files under {@code prefix}, without
   * committing them: {@code moved} learns each row's key and old and new place, so that the writer
   * can move its key index. The writer's next checkpoint commits the rewrite.
   */
  public Optional<PreparedCompaction> prepareCompactionOfOwnFiles(
      long version,
      CompactionOptions options,
      FileWriteOptions writeOptions,
      Predicate<String> ownFile,
      String prefix,
      KeyColumns keys,
      MovedRowConsumer moved) {
    Snapshot latest = snapshots.reload();
    Snapshot snapshot =
        version >= latest.getVersion() ? latest : history.get().atVersion(engine, version);
    return compaction()
        .prepare(
            snapshot,
            options,
            writeOptions,
            new TableCompaction.Scope(
                ownFile,
                prefix,
                Objects.requireNonNull(keys, "keys"),
                Objects.requireNonNull(moved, "moved")));
  }

  /**
   * Commits a compaction another handle of this table prepared, under transaction id {@code appId};
   * when a commit since its plan changed one of its files, nothing lands and its files are deleted
   * ({@link CompactionResult#committed} false).
   */
  public CompactionResult commitCompaction(PreparedCompaction prepared, String appId) {
    return compaction().commit(prepared, appId, 1);
  }

  /** Deletes the files of a compaction that will not be committed. */
  public void discardCompaction(PreparedCompaction prepared) {
    compaction().discard(prepared);
  }

  /** A compaction of the table through its committer. */
  public TableCompaction compaction() {
    return new TableCompaction(name, engine, snapshots, committer, storageConf);
  }

  /** How a compaction's files are written: at its target size, otherwise as by default. */
  public static FileWriteOptions writeOptionsFor(CompactionOptions options) {
    return FileWriteOptions.from(new org.apache.flink.configuration.Configuration())
        .withTargetFileSize(options.targetFileSizeBytes());
  }

  /**
   * Deletes the files under the table's directory that no version within {@code retention}
   * references (see {@link TableVacuum}): files of writer attempts that never committed, and files
   * that versions older than the retention removed; then the expired log files.
   *
   * @param dryRun only list the files
   * @throws IllegalArgumentException for a catalog-managed table, a table feature the vacuum does
   *     not know, or a retention shorter than the table's {@code
   *     delta.deletedFileRetentionDuration}
   */
  public VacuumResult vacuum(Duration retention, boolean dryRun) {
    return TableVacuum.run(
        name,
        engine,
        snapshots.reload(),
        storageConf,
        retention,
        dryRun,
        System.currentTimeMillis());
  }

  /**
   * How long a vacuum spares files that no version within it references, as the table's {@code
   * delta.deletedFileRetentionDuration} says (7 days when it says nothing, or nothing readable).
   */
  public Duration fileRetention() {
    try {
      return TableVacuum.retentionOf(
          name,
          snapshots.current().getTableProperties().get(TableVacuum.FILE_RETENTION),
          TableVacuum.DEFAULT_FILE_RETENTION);
    } catch (IllegalArgumentException e) {
      return TableVacuum.DEFAULT_FILE_RETENTION;
    }
  }

  /**
   * The paths of {@code files} (relative to the table root) that are not on storage: files of a
   * checkpoint restored after a vacuum whose retention was shorter than the job's downtime.
   */
  public List<String> missing(Iterable<DataFile> files) {
    List<String> missing = new ArrayList<>();
    Path root = new Path(path);
    try {
      FileSystem fs = root.getFileSystem(storageConf);
      for (DataFile file : files) {
        if (!fs.exists(new Path(root, file.path()))) {
          missing.add(file.path());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot look for the data files of " + name, e);
    }
    return missing;
  }
}
