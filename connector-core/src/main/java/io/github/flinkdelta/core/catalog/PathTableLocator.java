/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.TableAlreadyExistsException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.transaction.DataLayoutSpec;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.checkpoint.VersionChecksums;
import io.github.flinkdelta.core.storage.StorageProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A table known by its path alone: commits are files in its {@code _delta_log}. */
@Internal
public record PathTableLocator(String path) implements TableLocator {

  private static final Logger LOG = LoggerFactory.getLogger(PathTableLocator.class);

  public PathTableLocator {
    Objects.requireNonNull(path, "path");
  }

  @Override
  public String name() {
    return path;
  }

  @Override
  public String description() {
    return "Delta table at " + path;
  }

  @Override
  public SnapshotSource snapshots(Configuration conf) {
    return engine -> TableManager.loadSnapshot(path).build(engine);
  }

  @Override
  public Optional<TableLocator> find(Configuration conf) {
    try {
      TableManager.loadSnapshot(path).build(DefaultEngine.create(conf));
      return Optional.of(this);
    } catch (TableNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Creates version 0 at the path, after checking that the location is writable. */
  @Override
  public TableLocator create(Configuration conf, TableDefinition definition) {
    StorageProbe.checkWritable(path, conf);
    Engine engine = DefaultEngine.create(conf);
    List<Column> partitions = definition.partitionColumns().stream().map(Column::new).toList();
    try {
      Transaction create =
          TableManager.buildCreateTableTransaction(path, definition.schema(), ENGINE_INFO)
              .withTableProperties(definition.properties())
              .withDataLayoutSpec(
                  partitions.isEmpty()
                      ? DataLayoutSpec.noDataLayout()
                      : DataLayoutSpec.partitioned(partitions))
              .build(engine);
      TransactionCommitResult created = create.commit(engine, CloseableIterable.emptyIterable());
      long version = created.getVersion();
      created.getPostCommitSnapshot().ifPresent(s -> VersionChecksums.afterCommit(engine, s));
      LOG.info(
          "Created Delta table {} at version {} with schema {}",
          path,
          version,
          definition.schema());
    } catch (TableAlreadyExistsException | ConcurrentWriteException e) {
      // Another writer created it first; the table there is the one to write.
      LOG.info("Delta table {} was created concurrently by another writer", path);
    }
    return this;
  }

  /**
   * Deletes the table: every file under its path, data first, then its log from the newest version
   * down, then the directories. A directory that holds another Delta table below it is refused
   * before anything is deleted. A deletion cut short leaves the oldest versions of the log, so the
   * table is still found as itself (same {@link io.github.flinkdelta.core.kernel.TableIdentity id})
   * and a second deletion finishes the work; it never leaves a log that starts past version 0.
   */
  public void drop(Configuration conf) {
    Path root = new Path(path);
    try {
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(root)) {
        return;
      }
      Path table = fs.makeQualified(root);
      List<Path> data = new ArrayList<>();
      List<Path> log = new ArrayList<>();
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(table, true);
      while (files.hasNext()) {
        Path file = files.next().getPath();
        Path logDirectory = logDirectoryOf(file);
        if (logDirectory == null) {
          data.add(file);
        } else if (logDirectory.getParent().equals(table)) {
          log.add(file);
        } else {
          throw new IllegalStateException(
              String.format(
                  "Cannot drop the Delta table at %s: another Delta table lies inside its"
                      + " directory, at %s, and would be deleted with it. Nothing was deleted;"
                      + " move or drop that table first, or drop this one yourself.",
                  path, logDirectory.getParent()));
        }
      }
      for (Path file : data) {
        fs.delete(file, false);
      }
      // File names of the log sort by version: checkpoint pointer and newest versions go first.
      log.sort(Comparator.comparing(Path::getName).reversed());
      for (Path file : log) {
        fs.delete(file, false);
      }
      fs.delete(table, true);
      LOG.info("Dropped Delta table {}", path);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot drop the Delta table at " + path, e);
    }
  }

  /** The {@code _delta_log} directory {@code file} lies in, the nearest one up; null if none. */
  private static Path logDirectoryOf(Path file) {
    for (Path parent = file.getParent(); parent != null; parent = parent.getParent()) {
      if (parent.getName().equals("_delta_log")) {
        return parent;
      }
    }
    return null;
  }
}
