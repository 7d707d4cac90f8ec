/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateSnapshotContext;

/**
 * How one table's primary keys are kept in a writer subtask's key index: as they are, when the
 * index is the table's alone, or behind a prefix naming the table, when one index holds the keys of
 * many tables (the dynamic sink, whose stream is keyed by table and key). The index key is the key
 * the stream is keyed by, so it decides the key group.
 *
 * @param prefix put before each key; empty for an index of one table
 * @param range the subtask's key groups
 * @param maxParallelism the job's maximum parallelism, which assigns keys to key groups
 */
@Internal
public record IndexKeys(String prefix, KeyGroupRange range, int maxParallelism) {

  /** The keys of an index that holds one table's keys. */
  public static IndexKeys of(KeyGroupRange range, int maxParallelism) {
    return new IndexKeys("", range, maxParallelism);
  }

  /** The key under which the index keeps the table's {@code key}. */
  public String indexKey(String key) {
    return prefix.isEmpty() ? key : prefix + key;
  }

  /** Whether {@code key} of the table belongs to the subtask's key groups. */
  public boolean owns(String key) {
    return range.contains(KeyGroupRangeAssignment.assignToKeyGroup(indexKey(key), maxParallelism));
  }

  /**
   * Whether {@code key} of the table belongs to those of the subtask's key groups that {@code
   * groups} accepts.
   */
  public boolean owns(String key, java.util.function.IntPredicate groups) {
    int group = KeyGroupRangeAssignment.assignToKeyGroup(indexKey(key), maxParallelism);
    return range.contains(group) && groups.test(group);
  }

  /** {@code index} as the table's keys see it. */
  UpsertKeyIndex view(UpsertKeyIndex index) {
    return prefix.isEmpty() ? index : new TableView(index, prefix);
  }

  /**
   * One table's part of an index shared by many tables. A new generation removes the table's
   * entries alone; the shared index is written to checkpoints by its owner.
   */
  private record TableView(UpsertKeyIndex index, String prefix) implements UpsertKeyIndex {

    @Override
    public RowLocation get(String key) throws IOException {
      return index.get(prefix + key);
    }

    @Override
    public void put(String key, RowLocation location) throws IOException {
      index.put(prefix + key, location);
    }

    @Override
    public void remove(String key) throws IOException {
      index.remove(prefix + key);
    }

    @Override
    public void startGeneration(long generation) {
      try {
        index.removeIf(key -> key.startsWith(prefix));
      } catch (Exception e) {
        throw new IllegalStateException("Cannot empty the key index of a table", e);
      }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) {
      // The shared index is written by its owner.
    }

    @Override
    public void removeIf(Predicate<String> keys) throws Exception {
      index.removeIf(key -> key.startsWith(prefix) && keys.test(key.substring(prefix.length())));
    }

    @Override
    public void drainTo(EntryConsumer consumer) {
      throw new UnsupportedOperationException("The shared index is moved by its owner");
    }
  }
}
