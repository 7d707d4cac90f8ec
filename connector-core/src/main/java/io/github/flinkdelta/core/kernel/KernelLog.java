/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadRequest;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.actions.SetTransaction;
import io.delta.kernel.internal.commitrange.CommitRangeImpl;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.internal.replay.ActionWrapper;
import io.delta.kernel.internal.replay.ActionsIterator;
import io.delta.kernel.internal.snapshot.MetadataCleanup;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * A table's log read and cleaned where Kernel's public API needs its internals: the actions of a
 * range of commits (which {@code CommitRange} selects by an internal enum) and its commit files, a
 * transaction action, the tombstones of a snapshot's log state (internal log replay), and the
 * cleanup of expired log files (TableLogTest and TableVacuumTest fail when these change).
 */
@Internal
public final class KernelLog {

  /** The columns of a commit's action batches. */
  public static final String ADD = DeltaAction.ADD.colName;

  public static final String REMOVE = DeltaAction.REMOVE.colName;
  public static final String TXN = DeltaAction.TXN.colName;
  public static final String METADATA = DeltaAction.METADATA.colName;
  public static final String PROTOCOL = DeltaAction.PROTOCOL.colName;

  private static final Set<DeltaAction> FILE_ACTIONS =
      Set.of(DeltaAction.ADD, DeltaAction.REMOVE, DeltaAction.METADATA, DeltaAction.PROTOCOL);

  private static final Set<DeltaAction> FILE_AND_TXN_ACTIONS =
      Set.of(
          DeltaAction.ADD,
          DeltaAction.REMOVE,
          DeltaAction.TXN,
          DeltaAction.METADATA,
          DeltaAction.PROTOCOL);

  private KernelLog() {}

  /**
   * The commits of {@code range} with their add, remove, metadata and protocol actions, and their
   * transactions when {@code withTransactions}.
   */
  public static CloseableIterator<CommitActions> commitActions(
      CommitRange range, Engine engine, boolean withTransactions) {
    return range.getCommitActions(engine, withTransactions ? FILE_AND_TXN_ACTIONS : FILE_ACTIONS);
  }

  /**
   * The commit files of {@code range}, one per version in order, with their sizes; empty when the
   * range does not hold its commits as files (then read them through {@link #commitActions}).
   */
  public static List<CommitFile> commitFiles(CommitRange range) {
    if (!(range instanceof CommitRangeImpl impl)) {
      return List.of();
    }
    List<FileStatus> deltas;
    try {
      deltas = impl.getDeltaFiles();
    } catch (NoSuchElementException e) {
      // A commit the catalog holds inline, not as a file.
      return List.of();
    }
    if (deltas.size() != range.getEndVersion() - range.getStartVersion() + 1) {
      return List.of();
    }
    List<CommitFile> files = new ArrayList<>(deltas.size());
    for (int i = 0; i < deltas.size(); i++) {
      FileStatus delta = deltas.get(i);
      files.add(new CommitFile(range.getStartVersion() + i, delta.getPath(), delta.getSize()));
    }
    return files;
  }

  /** A version's commit file: where it is and how many bytes it holds. */
  public record CommitFile(long version, String path, long size) {

    /** Its first {@code length} bytes, through the engine's file system. */
    public byte[] head(Engine engine, int length) throws IOException {
      FileReadRequest request =
          new FileReadRequest() {
            @Override
            public String getPath() {
              return path;
            }

            @Override
            public int getStartOffset() {
              return 0;
            }

            @Override
            public int getReadLength() {
              return length;
            }
          };
      try (CloseableIterator<ByteArrayInputStream> streams =
          engine.getFileSystemClient().readFiles(Utils.singletonCloseableIterator(request))) {
        return streams.next().readAllBytes();
      }
    }
  }

  /** A transaction a version records: the app and its version. */
  public record Transaction(String appId, long version) {

    /** The transaction a row of Kernel's txn schema holds. */
    public static Transaction of(Row txnRow) {
      SetTransaction txn = SetTransaction.fromRow(txnRow);
      return new Transaction(txn.getAppId(), txn.getVersion());
    }
  }

  /**
   * The remove actions of {@code snapshot}'s log state, its checkpoint (sidecars included) and the
   * commits after it, newest file first: batches with a {@link #REMOVE} column of {@link
   * RemoveAction#SCHEMA}.
   */
  public static CloseableIterator<ColumnarBatch> tombstones(Engine engine, Snapshot snapshot) {
    StructType removes = new StructType().add(REMOVE, RemoveAction.SCHEMA);
    return new ActionsIterator(
            engine,
            ((SnapshotImpl) snapshot).getLogSegment().allLogFilesReversed(),
            removes,
            Optional.empty())
        .map(ActionWrapper::getColumnarBatch);
  }

  /**
   * Deletes the log files of the table of {@code snapshot} older than {@code retentionMillis} at
   * {@code nowMillis} that no checkpoint still needs.
   *
   * @return the number of files deleted
   */
  public static long cleanExpiredLogs(
      Engine engine, Snapshot snapshot, long nowMillis, long retentionMillis) throws IOException {
    return MetadataCleanup.cleanupExpiredLogs(
        engine, () -> nowMillis, new Path(snapshot.getPath()), retentionMillis);
  }
}
