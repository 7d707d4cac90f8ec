/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.IndexCatchUp;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.StateSnapshotContext;

/**
 * Where each key of an upsert writer subtask has its live row. Two kinds: {@link HeapKeyIndex},
 * compact maps on the heap written to the checkpoint per key group, and {@link KeyedStateKeyIndex},
 * a value per key in the job's state backend, which RocksDB keeps on disk.
 */
@Internal
public interface UpsertKeyIndex extends IndexCatchUp.Index {

  /** Whether the index lives on the heap, written to checkpoints as raw keyed state. */
  default boolean onHeap() {
    return false;
  }

  /** The location of {@code key}'s live row, or null when it has none. */
  @Override
  RowLocation get(String key) throws IOException;

  /** Sets the location of {@code key}'s live row. */
  @Override
  void put(String key, RowLocation location) throws IOException;

  /** Removes {@code key}'s location. */
  @Override
  void remove(String key) throws IOException;

  /** Empties the index, which holds generation {@code generation} from now on. */
  void startGeneration(long generation);

  /** Writes what the state backend does not keep itself into the checkpoint. */
  void snapshotState(StateSnapshotContext context) throws Exception;

  /** Receives entries of an index. */
  @FunctionalInterface
  interface EntryConsumer {
    void accept(String key, RowLocation location) throws IOException;
  }

  /** Removes the entries of every key {@code keys} accepts. */
  void removeIf(Predicate<String> keys) throws Exception;

  /** Hands every entry to {@code consumer}, then empties the index. */
  void drainTo(EntryConsumer consumer) throws Exception;
}
