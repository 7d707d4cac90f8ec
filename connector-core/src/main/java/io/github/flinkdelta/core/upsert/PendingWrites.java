/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;

/**
 * What an upsert writer handed on that the table may not hold yet: the data files of checkpoints
 * whose commit it has not seen in the table's log, and the compactions whose commit it has not
 * seen. Following the log ({@link IndexCatchUp}), the writer needs both to tell where a key's row
 * stands against another writer's change: a row in a file not yet committed comes after every
 * version already in the log, and an index entry that a compaction moved into a file not yet
 * committed still stands for the row it moved.
 *
 * <p>Kept in the writer's state, so that a restore knows what the restored checkpoints left
 * pending. Not thread-safe.
 */
@Internal
public final class PendingWrites {

  /** The file ids of checkpoints not seen committed, by checkpoint id. */
  private final Map<Long, Long> fileCheckpoints = new HashMap<>();

  /** Compactions not seen committed, by the checkpoint that handed them on. */
  private final Map<Long, List<RewriteLayout>> rewrites = new HashMap<>();

  /** The ids of the files the pending compactions wrote. */
  private final Set<Long> rewriteOutputs = new HashSet<>();

  /** The last checkpoint seen committed; -1 for none. */
  private long committed = -1;

  /** The rows of the read vectors of pending compactions' inputs, loaded when first asked for. */
  private final Map<DeletionVectorDescriptor, RowPositions> readVectors = new HashMap<>();

  /** Records the files and compactions a writer handed on at the barrier of {@code checkpoint}. */
  public void handedOver(long checkpoint, Collection<Long> fileIds, List<RewriteLayout> layouts) {
    for (long id : fileIds) {
      fileCheckpoints.put(id, checkpoint);
    }
    if (!layouts.isEmpty()) {
      rewrites.computeIfAbsent(checkpoint, c -> new ArrayList<>()).addAll(layouts);
      layouts.forEach(layout -> rewriteOutputs.addAll(layout.outputIds()));
    }
  }

  /** The table holds the sink's checkpoints up to {@code checkpoint}. */
  public void committed(long checkpoint) {
    if (checkpoint <= committed) {
      return;
    }
    committed = checkpoint;
    fileCheckpoints.values().removeIf(c -> c <= checkpoint);
  }

  /** The table holds the compactions handed on up to {@code checkpoint}. */
  public void rewritesCommitted(long checkpoint) {
    if (rewrites.keySet().removeIf(c -> c <= checkpoint)) {
      rewriteOutputs.clear();
      rewrites.values().forEach(list -> list.forEach(l -> rewriteOutputs.addAll(l.outputIds())));
      readVectors.clear();
    }
  }

  /** Whether {@code fileId} is a file of a checkpoint the table does not hold yet. */
  public boolean isPending(long fileId) {
    return fileCheckpoints.containsKey(fileId);
  }

  /** The last checkpoint seen committed; -1 for none. */
  public long committedCheckpoint() {
    return committed;
  }

  /** Whether nothing is pending. */
  public boolean isEmpty() {
    return fileCheckpoints.isEmpty() && rewrites.isEmpty();
  }

  /**
   * Where a pending compaction put the row at {@code row} of one of its inputs; null when no
   * pending compaction read that row.
   *
   * @param current the index entry this is compared with: only when it lies in a file a pending
   *     compaction wrote is the row looked up
   * @param vectors reads the rows of a deletion vector
   */
  public RowLocation rewriteTarget(
      RowLocation row,
      RowLocation current,
      Function<DeletionVectorDescriptor, RowPositions> vectors) {
    if (!rewriteOutputs.contains(current.fileId())) {
      return null;
    }
    for (List<RewriteLayout> layouts : rewrites.values()) {
      for (RewriteLayout layout : layouts) {
        RewriteLayout.Input input = layout.input(row.fileId());
        if (input == null) {
          continue;
        }
        RowPositions read =
            input.readVector() == null
                ? new RowPositions()
                : readVectors.computeIfAbsent(input.readVector(), vectors);
        return RewriteLayout.outputPosition(input, read, row.position());
      }
    }
    return null;
  }

  /** Adds what {@code other} holds: the pending writes of another subtask's state. */
  public void addAll(PendingWrites other) {
    other.fileCheckpoints.forEach(fileCheckpoints::putIfAbsent);
    other.rewrites.forEach(
        (checkpoint, layouts) -> {
          List<RewriteLayout> mine = rewrites.computeIfAbsent(checkpoint, c -> new ArrayList<>());
          for (RewriteLayout layout : layouts) {
            if (!mine.contains(layout)) {
              mine.add(layout);
              rewriteOutputs.addAll(layout.outputIds());
            }
          }
        });
    if (other.committed > committed) {
      committed(other.committed);
    }
  }

  /** Writes what is pending. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(FORMAT);
    out.writeLong(committed);
    out.writeInt(fileCheckpoints.size());
    for (Map.Entry<Long, Long> file : fileCheckpoints.entrySet()) {
      out.writeLong(file.getKey());
      out.writeLong(file.getValue());
    }
    out.writeInt(rewrites.size());
    for (Map.Entry<Long, List<RewriteLayout>> entry : rewrites.entrySet()) {
      out.writeLong(entry.getKey());
      out.writeInt(entry.getValue().size());
      for (RewriteLayout layout : entry.getValue()) {
        layout.writeTo(out);
      }
    }
  }

  /** Reads what {@link #writeTo} wrote. */
  public static PendingWrites readFrom(DataInput in) throws IOException {
    int format = in.readInt();
    if (format != FORMAT) {
      throw new IOException(
          "The pending writes in this checkpoint have format "
              + format
              + ", which this connector version cannot read");
    }
    PendingWrites pending = new PendingWrites();
    pending.committed = in.readLong();
    int files = checkedCount(in.readInt(), "pending files");
    for (int i = 0; i < files; i++) {
      pending.fileCheckpoints.put(in.readLong(), in.readLong());
    }
    int checkpoints = checkedCount(in.readInt(), "checkpoints with compactions");
    for (int i = 0; i < checkpoints; i++) {
      long checkpoint = in.readLong();
      int layouts = checkedCount(in.readInt(), "compactions");
      List<RewriteLayout> list = new ArrayList<>(layouts);
      for (int l = 0; l < layouts; l++) {
        RewriteLayout layout = RewriteLayout.readFrom(in);
        list.add(layout);
        pending.rewriteOutputs.addAll(layout.outputIds());
      }
      pending.rewrites.put(checkpoint, list);
    }
    return pending;
  }

  private static int checkedCount(int count, String what) throws IOException {
    if (count < 0 || count > (1 << 26)) {
      throw new IOException("Corrupt sink state: " + count + " " + what);
    }
    return count;
  }

  private static final int FORMAT = 1;
}
