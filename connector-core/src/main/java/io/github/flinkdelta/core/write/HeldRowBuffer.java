/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.DataFileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.RowData;

/**
 * The first rows of partitions that have no open file yet, held encoded in byte arrays. An open
 * Parquet file costs about {@value DataFileWriter#OPEN_FILE_OVERHEAD_BYTES} bytes before any data;
 * holding a few rows costs far less, so a partition gets an open file only once its held rows would
 * take that much memory.
 */
final class HeldRowBuffer {

  /** The heap of a held row beyond its encoded bytes: array header and list slot. */
  static final long ROW_OVERHEAD_BYTES = 24;

  /** The heap of a partition with held rows: its key, map entry and row list. */
  static final long PARTITION_OVERHEAD_BYTES = 512;

  private final RowCopier copier;
  private final MemoryBudget budget;
  private final long maxRowsPerFile;
  private final Map<PartitionKey, Held> partitions = new HashMap<>();

  HeldRowBuffer(RowCopier copier, MemoryBudget budget, long maxRowsPerFile) {
    this.copier = copier;
    this.budget = budget;
    this.maxRowsPerFile = maxRowsPerFile;
  }

  /**
   * Holds an encoded copy of {@code row} in its partition.
   *
   * @param key the row's partition, which may share memory with the row; it is copied when kept
   * @return the partition's key as held, when its rows now cost as much as an open file or fill
   *     one, so that it should get an open file; otherwise null
   * @throws io.github.flinkdelta.core.parquet.NullValueException when a NOT NULL column holds a
   *     null; nothing of the row is held then
   */
  PartitionKey hold(PartitionKey key, RowData row) {
    // Encoded first: a row refused for a null leaves nothing behind.
    byte[] encoded = copier.encode(row);
    Held held = partitions.get(key);
    if (held == null) {
      key = key.copy();
      held = new Held(key, budget.share());
      partitions.put(key, held);
    }
    held.rows.add(encoded);
    held.memory.grow(encoded.length + ROW_OVERHEAD_BYTES);
    boolean full =
        held.memory.bytes() >= DataFileWriter.OPEN_FILE_OVERHEAD_BYTES
            || held.rows.size() >= maxRowsPerFile;
    return full ? held.key : null;
  }

  /** Writes the held rows of {@code key} into {@code file}, oldest first, and forgets them. */
  void moveTo(PartitionKey key, OpenDataFile file) throws IOException {
    Held held = partitions.remove(key);
    held.memory.release();
    for (byte[] row : held.rows) {
      file.write(copier.decode(row));
    }
  }

  /** The partitions that have held rows. */
  Set<PartitionKey> partitions() {
    return Set.copyOf(partitions.keySet());
  }

  /** The heap the held rows of {@code key} take, with their partition's overhead. */
  long heapBytes(PartitionKey key) {
    return partitions.get(key).memory.bytes();
  }

  /** Forgets every held row. */
  void clear() {
    partitions.values().forEach(held -> held.memory.release());
    partitions.clear();
  }

  /** One partition's held rows and their share of the budget. */
  private static final class Held {
    private final PartitionKey key;
    private final List<byte[]> rows = new ArrayList<>();
    private final MemoryBudget.Share memory;

    private Held(PartitionKey key, MemoryBudget.Share memory) {
      this.key = key;
      this.memory = memory;
      memory.resize(PARTITION_OVERHEAD_BYTES);
    }
  }
}
