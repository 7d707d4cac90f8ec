/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.read.ReadFile;
import io.github.flinkdelta.core.read.SnapshotFiles;
import io.github.flinkdelta.core.read.TableChanges;
import io.github.flinkdelta.core.read.VersionChange;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the splits of a read: those of the snapshot it starts from, then those of each new version.
 * It holds no state of its own; the enumerator hands it the next version to plan.
 *
 * <p>A version that only adds rows is read as inserts; one that deletes or updates rows stops the
 * read, is skipped, or is read as its deletes and inserts, as {@link
 * DeltaSourceOptions#CHANGE_COMMITS} says; one whose files are rewritten without a data change
 * (compaction) reads nothing; one that changes the schema goes on only when every column read is
 * still there under its physical name with its type.
 */
final class VersionPlanner {

  private static final Logger LOG = LoggerFactory.getLogger(VersionPlanner.class);

  /**
   * Splits to add and the next version to plan after them.
   *
   * @param from the next version the plan was made from, -1 for the start
   * @param next the next version to plan after this one
   */
  record Plan(long from, long next, List<DeltaSplit> splits) {}

  private final DeltaSourceConfig config;
  private final TableHistory history;
  private final Engine engine;

  VersionPlanner(DeltaSourceConfig config, TableHistory history, Engine engine) {
    this.config = config;
    this.history = history;
    this.engine = engine;
  }

  /** The plan of the read's start: the snapshot's files, or only where the versions start. */
  Plan start() {
    if (config.bounded()) {
      Snapshot snapshot = startSnapshot();
      return new Plan(-1, snapshot.getVersion() + 1, files(snapshot));
    }
    return switch (config.startup()) {
      case SNAPSHOT_THEN_INCREMENTAL -> {
        Snapshot snapshot = history.latest(engine);
        yield new Plan(-1, snapshot.getVersion() + 1, files(snapshot));
      }
      case LATEST -> new Plan(-1, history.latest(engine).getVersion() + 1, List.of());
      case VERSION -> new Plan(-1, config.startVersion(), List.of());
      case TIMESTAMP -> new Plan(-1, firstVersionAtOrAfter(config.startTimestamp()), List.of());
    };
  }

  /** The plan of the versions from {@code from} on, as far as the table has them. */
  Plan next(long from) {
    long latest = history.latest(engine).getVersion();
    if (latest < from) {
      return new Plan(from, from, List.of());
    }
    long end = Math.min(latest, from + Math.max(1, config.maxFilesPerPoll()) - 1);
    List<VersionChange> changes;
    try {
      changes =
          TableChanges.of(
              engine,
              history.commits(engine, from, end),
              config.table().path(),
              config.watermark());
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          String.format(
              "Cannot read versions %d to %d of Delta table %s (%s). When the table's log no"
                  + " longer holds them (log retention, or a table recreated), restart the source"
                  + " without its state from the latest snapshot ('%s' = SNAPSHOT_THEN_INCREMENTAL)"
                  + " or from a later version.",
              from, end, config.tableName(), e.getMessage(), DeltaSourceOptions.STARTUP_MODE.key()),
          e);
    }
    List<DeltaSplit> splits = new ArrayList<>();
    long next = from;
    for (VersionChange change : changes) {
      if (change.metadataChanged()) {
        checkSchema(change.version());
      }
      if (change.onlyAppends()) {
        change.added().stream().map(DeltaSplit::of).forEach(splits::add);
      } else {
        switch (config.changeCommits()) {
          case FAIL -> throw new IllegalStateException(changeCommitFound(change));
          case SKIP ->
              LOG.info(
                  "Skipping version {} of Delta table {}: it deletes or updates rows ({} files"
                      + " removed)",
                  change.version(),
                  config.tableName(),
                  change.removed().size());
          case CHANGELOG -> splits.addAll(changes(change));
        }
      }
      next = change.version() + 1;
      if (splits.size() >= config.maxFilesPerPoll()) {
        break;
      }
    }
    return new Plan(from, next, splits);
  }

  /**
   * The splits of a version's changes, its deletes first: a file removed and added again with
   * another deletion vector deletes the rows the new vector adds; a file removed outright deletes
   * its live rows; a file added inserts its live rows.
   */
  private static List<DeltaSplit> changes(VersionChange change) {
    Map<String, ReadFile> added = new LinkedHashMap<>();
    change.added().forEach(file -> added.put(file.path(), file));
    List<DeltaSplit> splits = new ArrayList<>();
    for (ReadFile removed : change.removed()) {
      ReadFile again = added.remove(removed.path());
      if (again == null) {
        splits.add(DeltaSplit.removed(removed));
      } else if (!Objects.equals(again.deletionVector(), removed.deletionVector())) {
        splits.add(DeltaSplit.newlyDeleted(again, removed.deletionVector()));
      }
    }
    added.values().stream().map(DeltaSplit::of).forEach(splits::add);
    return splits;
  }

  private Snapshot startSnapshot() {
    return switch (config.startup()) {
      case VERSION -> history.atVersion(engine, config.startVersion());
      case TIMESTAMP -> history.atTimestamp(engine, config.startTimestamp());
      default -> history.latest(engine);
    };
  }

  private List<DeltaSplit> files(Snapshot snapshot) {
    Optional<Predicate> filter =
        Optional.ofNullable(config.filter()).map(f -> f.toKernel(snapshot.getSchema()));
    return SnapshotFiles.of(engine, snapshot, filter, config.watermark(), config.tableName())
        .stream()
        .map(DeltaSplit::of)
        .toList();
  }

  /** The first version committed at or after {@code timestamp}. */
  private long firstVersionAtOrAfter(long timestamp) {
    Snapshot before;
    try {
      before = history.atTimestamp(engine, timestamp - 1);
    } catch (RuntimeException e) {
      // Nothing was committed before the timestamp: every version is at or after it.
      return 0;
    }
    return before.getVersion() + 1;
  }

  /** Fails unless every column read is still in the table as it was when the job was built. */
  private void checkSchema(long version) {
    Snapshot snapshot = history.atVersion(engine, version);
    ReadColumns now;
    try {
      now = config.columns().against(snapshot);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          String.format(
              "Version %d of Delta table %s changed its schema so that the source cannot go on: %s."
                  + " Restart the job with the table's new columns.",
              version, config.tableName(), e.getMessage()),
          e);
    }
    for (String name : config.columns().names()) {
      StructField was = config.columns().tableSchema().get(name);
      StructField is = now.tableSchema().get(name);
      if (!was.getDataType().equivalent(is.getDataType())
          || !physicalName(was).equals(physicalName(is))) {
        throw new IllegalStateException(
            String.format(
                "Version %d of Delta table %s changed column '%s' from %s to %s (or replaced it"
                    + " by another column of its name): the source reads it as %s and cannot go"
                    + " on. Restart the job with the column's new type.",
                version,
                config.tableName(),
                name,
                was.getDataType(),
                is.getDataType(),
                was.getDataType()));
      }
    }
  }

  private static String physicalName(StructField field) {
    return field.getMetadata().contains("delta.columnMapping.physicalName")
        ? field.getMetadata().getString("delta.columnMapping.physicalName")
        : field.getName();
  }

  private String changeCommitFound(VersionChange change) {
    return String.format(
        "Version %d of Delta table %s deletes or updates rows (it removes %d data files or"
            + " changes their deletion vectors, as upserts, deletes and overwrites do), which this"
            + " source reads only as changes. Set '%s' = '%s' to read its deletes and inserts as"
            + " changes, or '%s' to read past such versions without their changes.",
        change.version(),
        config.tableName(),
        change.removed().size(),
        DeltaSourceOptions.CHANGE_COMMITS.key(),
        ChangeCommits.CHANGELOG,
        ChangeCommits.SKIP);
  }
}
