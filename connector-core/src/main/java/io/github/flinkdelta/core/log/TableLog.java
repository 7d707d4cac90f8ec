/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.kernel.KernelLog;
import io.github.flinkdelta.core.kernel.RemoveAction;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The file actions of a range of a table's versions, each version with the transactions it records:
 * what the committer and the writers of an upsert sink need to follow what other writers did to the
 * table since they last looked, without scanning the table.
 *
 * <p>The actions are read through the Kernel adapter ({@link AddAction}, {@link RemoveAction},
 * {@link KernelLog}): Kernel's public {@code CommitRange} gives actions only as rows.
 */
@Internal
public final class TableLog {

  private TableLog() {}

  /**
   * One version's changes.
   *
   * @param transactions the transactions it records: app id to transaction version
   * @param added its add actions, re-adds of a file with a new deletion vector included
   * @param removed its remove actions
   * @param metadataChanged whether it changed the table's metadata or protocol
   */
  public record Version(
      long version,
      Map<String, Long> transactions,
      List<Added> added,
      List<Removed> removed,
      boolean metadataChanged) {

    public Version {
      transactions = Map.copyOf(transactions);
      added = List.copyOf(added);
      removed = List.copyOf(removed);
    }

    /** Whether the version records a transaction of {@code appId}. */
    boolean isOf(String appId) {
      return transactions.containsKey(appId);
    }
  }

  /** An add action: the file's entry, and whether the add says it changes data. */
  public record Added(LiveFile file, boolean dataChange) {}

  /**
   * A remove action.
   *
   * @param relativePath the path relative to the table root, decoded
   * @param partitionValues the partition values it names; null when the action has none
   * @param size the file's size; -1 when the action has none (the field is optional)
   * @param vector the deletion vector of the entry it removes; null for none
   */
  public record Removed(
      String relativePath,
      Map<String, String> partitionValues,
      long size,
      DeletionVectorDescriptor vector,
      boolean dataChange) {

    public long id() {
      return FileIds.of(relativePath);
    }
  }

  /** The versions {@code from} through {@code to}, both included, in order. */
  public static List<Version> read(
      Engine engine, TableHistory history, String tableRoot, long from, long to) {
    return read(engine, history, tableRoot, from, to, Set.of());
  }

  /**
   * As {@link #read(Engine, TableHistory, String, long, long)}, but a version that records a
   * transaction of one of {@code namedOnly} before its file actions (as every commit Kernel writes
   * does) comes back with its transactions and metadata flag only, no added or removed files: the
   * first bytes of its commit file are read, not its file actions. A reader that only needs to know
   * which versions are its own pays for the others' alone.
   */
  public static List<Version> read(
      Engine engine,
      TableHistory history,
      String tableRoot,
      long from,
      long to,
      Set<String> namedOnly) {
    CommitRange range = history.commits(engine, from, to);
    List<KernelLog.CommitFile> files =
        namedOnly.isEmpty() ? List.of() : KernelLog.commitFiles(range);
    if (files.isEmpty()) {
      return readWhole(engine, range, URI.create(tableRoot));
    }
    List<Version> versions = new ArrayList<>();
    long wholeFrom = -1;
    for (KernelLog.CommitFile file : files) {
      CommitHeader header = CommitHeader.read(engine, file);
      if (header == null || !header.isOfAny(namedOnly)) {
        wholeFrom = wholeFrom < 0 ? file.version() : wholeFrom;
        continue;
      }
      if (wholeFrom >= 0) {
        versions.addAll(read(engine, history, tableRoot, wholeFrom, file.version() - 1));
        wholeFrom = -1;
      }
      versions.add(
          new Version(
              file.version(),
              header.transactions(),
              List.of(),
              List.of(),
              header.metadataChanged()));
    }
    if (wholeFrom == from) {
      // None of the named apps: the range is read whole as it is.
      return readWhole(engine, range, URI.create(tableRoot));
    }
    if (wholeFrom >= 0) {
      versions.addAll(read(engine, history, tableRoot, wholeFrom, to));
    }
    return versions;
  }

  private static List<Version> readWhole(Engine engine, CommitRange range, URI root) {
    List<Version> versions = new ArrayList<>();
    try (CloseableIterator<CommitActions> commits = KernelLog.commitActions(range, engine, true)) {
      while (commits.hasNext()) {
        try (CommitActions commit = commits.next()) {
          versions.add(version(commit, root));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return versions;
  }

  private static Version version(CommitActions commit, URI root) throws IOException {
    Map<String, Long> transactions = new HashMap<>();
    List<Added> added = new ArrayList<>();
    List<Removed> removed = new ArrayList<>();
    boolean metadata = false;
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        int addIndex = batch.getSchema().indexOf(KernelLog.ADD);
        int removeIndex = batch.getSchema().indexOf(KernelLog.REMOVE);
        int txnIndex = batch.getSchema().indexOf(KernelLog.TXN);
        int metadataIndex = batch.getSchema().indexOf(KernelLog.METADATA);
        int protocolIndex = batch.getSchema().indexOf(KernelLog.PROTOCOL);
        try (CloseableIterator<Row> rows = batch.getRows()) {
          while (rows.hasNext()) {
            Row row = rows.next();
            if (!row.isNullAt(addIndex)) {
              AddAction add = AddAction.of(row.getStruct(addIndex));
              added.add(new Added(LiveFile.of(add, root), add.dataChange()));
            } else if (!row.isNullAt(removeIndex)) {
              removed.add(removed(RemoveAction.of(row.getStruct(removeIndex)), root));
            } else if (!row.isNullAt(txnIndex)) {
              KernelLog.Transaction txn = KernelLog.Transaction.of(row.getStruct(txnIndex));
              transactions.merge(txn.appId(), txn.version(), Math::max);
            } else if (!row.isNullAt(metadataIndex) || !row.isNullAt(protocolIndex)) {
              metadata = true;
            }
          }
        }
      }
    }
    return new Version(commit.getVersion(), transactions, added, removed, metadata);
  }

  private static Removed removed(RemoveAction remove, URI root) {
    return new Removed(
        FileIds.relativePath(remove.path(), root),
        remove.partitionValues().orElse(null),
        remove.size().orElse(-1L),
        remove.deletionVector().orElse(null),
        remove.dataChange());
  }
}
