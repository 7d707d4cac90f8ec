/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The rows of the deletion vectors an upsert committer committed last, so that the next commit
 * deleting rows in the same file need not read its vector back from storage. The rows are kept
 * {@link RowPositions#compacted compacted} within a budget of bytes, the least recently used going
 * first; a file's rows are a hit only while the table's entry for the file names the very vector
 * they are of, so a miss (evicted, or another writer's vector) only costs a read.
 */
final class WrittenVectors {

  /** The heap the rows of vectors may take: some 4,000 files at 8 KB each. */
  static final long DEFAULT_BUDGET_BYTES = 32L << 20;

  private record Entry(DeletionVectorDescriptor vector, RowPositions rows, long bytes) {}

  private final long budgetBytes;
  private final LinkedHashMap<Long, Entry> rows = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;

  WrittenVectors(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  /**
   * A copy of the rows of {@code vector}, the vector the table holds for the file of {@code
   * fileId}, when this committer wrote it and still holds them; null otherwise.
   */
  RowPositions rowsOf(long fileId, DeletionVectorDescriptor vector) {
    Entry entry = rows.get(fileId);
    return entry != null && entry.vector().equals(vector) ? entry.rows().copy() : null;
  }

  /**
   * Remembers that a committed version gave the file of {@code fileId} the vector of {@code set}.
   */
  void committed(long fileId, DeletionVectorDescriptor vector, RowPositions set) {
    RowPositions kept = set.compacted();
    Entry entry = new Entry(vector, kept, kept.sizeInBytes());
    Entry replaced = rows.put(fileId, entry);
    bytes += entry.bytes() - (replaced == null ? 0 : replaced.bytes());
    Iterator<Entry> eldest = rows.values().iterator();
    while (bytes > budgetBytes && eldest.hasNext()) {
      bytes -= eldest.next().bytes();
      eldest.remove();
    }
  }

  /** Drops the rows of the file of {@code fileId}, which a committed version removed. */
  void forget(long fileId) {
    Entry entry = rows.remove(fileId);
    if (entry != null) {
      bytes -= entry.bytes();
    }
  }

  /** The bytes the kept rows take, as {@link RowPositions#sizeInBytes} estimates them. */
  long bytes() {
    return bytes;
  }

  /** The number of files whose rows are kept. */
  int files() {
    return rows.size();
  }
}
