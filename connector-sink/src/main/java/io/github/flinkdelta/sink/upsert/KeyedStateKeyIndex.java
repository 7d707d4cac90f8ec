/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.IndexEntries;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;

/**
 * The key index as one value per key in the job's keyed state backend ({@link IndexEntries}): with
 * RocksDB it lives on disk and its checkpoints can be incremental, so it suits key spaces larger
 * than the heap. An entry of an earlier generation than the index's counts as absent, which empties
 * the index without visiting its keys.
 */
final class KeyedStateKeyIndex implements UpsertKeyIndex {

  static final String STATE_NAME = "delta-upsert-index";

  private final KeyedStateBackend<String> backend;
  private final ValueState<byte[]> entries;
  private long generation;

  private KeyedStateKeyIndex(
      KeyedStateBackend<String> backend, ValueState<byte[]> entries, long generation) {
    this.backend = backend;
    this.entries = entries;
    this.generation = generation;
  }

  /** The index of {@code backend}, of generation {@code generation}. */
  static KeyedStateKeyIndex of(KeyedStateBackend<String> backend, long generation)
      throws Exception {
    ValueState<byte[]> state =
        backend.getPartitionedState(
            VoidNamespace.INSTANCE,
            VoidNamespaceSerializer.INSTANCE,
            new ValueStateDescriptor<>(STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
    return new KeyedStateKeyIndex(backend, state, generation);
  }

  @Override
  public RowLocation get(String key) throws IOException {
    select(key);
    byte[] entry = entries.value();
    if (entry == null || IndexEntries.generation(entry) != generation) {
      return null;
    }
    return new RowLocation(IndexEntries.fileId(entry), IndexEntries.position(entry));
  }

  @Override
  public void put(String key, RowLocation location) throws IOException {
    select(key);
    entries.update(IndexEntries.encode(location.fileId(), location.position(), generation));
  }

  @Override
  public void remove(String key) {
    select(key);
    entries.clear();
  }

  @Override
  public void startGeneration(long generation) {
    this.generation = generation;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) {
    // The state backend writes the entries.
  }

  @Override
  public void removeIf(Predicate<String> keys) {
    List<String> removed;
    try (Stream<String> all = backend.getKeys(STATE_NAME, VoidNamespace.INSTANCE)) {
      removed = all.filter(keys).collect(Collectors.toList());
    }
    for (String key : removed) {
      select(key);
      entries.clear();
    }
  }

  @Override
  public void drainTo(EntryConsumer consumer) throws Exception {
    List<String> keys;
    try (Stream<String> all = backend.getKeys(STATE_NAME, VoidNamespace.INSTANCE)) {
      keys = all.collect(Collectors.toList());
    }
    for (String key : keys) {
      RowLocation location = get(key);
      if (location != null) {
        consumer.accept(key, location);
      }
      entries.clear();
    }
  }

  /** Makes {@code key} the backend's current key, which it is already while a row is processed. */
  private void select(String key) {
    if (backend.getCurrentKey() != key) {
      backend.setCurrentKey(key);
    }
  }
}
