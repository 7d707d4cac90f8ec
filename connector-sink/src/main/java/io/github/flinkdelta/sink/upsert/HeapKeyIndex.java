/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.KeyLocations;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateSnapshotContext;

/**
 * The key index on the heap: a {@link KeyLocations} map per key group of the subtask, written into
 * the checkpoint's raw keyed state one key group after another, so that a rescaled job hands each
 * key group's map to its new owner. It holds no object per key, costs about 50 bytes per key plus
 * the key's bytes, and a lookup touches primitive arrays only; but it is all in memory and all
 * written at every checkpoint, which suits the HashMap state backend, whose state is both anyway.
 */
final class HeapKeyIndex implements UpsertKeyIndex {

  /** Format of the raw keyed state: the version, then a key group's {@link KeyLocations}. */
  private static final int FORMAT = 1;

  private final KeyGroupRange range;
  private final int maxParallelism;
  private final KeyLocations[] groups;

  HeapKeyIndex(KeyGroupRange range, int maxParallelism) {
    this.range = range;
    this.maxParallelism = maxParallelism;
    this.groups = new KeyLocations[range.getNumberOfKeyGroups()];
  }

  /** Adds the entries a checkpoint holds for this subtask's key groups. */
  void restore(Iterable<KeyGroupStatePartitionStreamProvider> inputs) throws IOException {
    for (KeyGroupStatePartitionStreamProvider input : inputs) {
      if (!range.contains(input.getKeyGroupId())) {
        continue;
      }
      // The stream is shared by the key groups of one handle: it is positioned, not closed, here.
      InputStream stream = input.getStream();
      DataInputStream in = new DataInputStream(new BufferedInputStream(stream, 64 * 1024));
      int format = in.readInt();
      if (format != FORMAT) {
        throw new IOException(
            "The key index in this checkpoint has format "
                + format
                + ", which this connector version cannot read; restore it with the version that"
                + " wrote it, or start the job without state");
      }
      int index = input.getKeyGroupId() - range.getStartKeyGroup();
      if (groups[index] == null) {
        groups[index] = new KeyLocations();
      }
      groups[index].readFrom(in);
    }
  }

  @Override
  public RowLocation get(String key) {
    KeyLocations group = groups[indexOf(key)];
    if (group == null) {
      return null;
    }
    int slot = group.find(key);
    return slot < 0 ? null : new RowLocation(group.fileId(slot), group.position(slot));
  }

  @Override
  public void put(String key, RowLocation location) {
    int index = indexOf(key);
    if (groups[index] == null) {
      groups[index] = new KeyLocations();
    }
    groups[index].put(key, location.fileId(), location.position());
  }

  @Override
  public void remove(String key) {
    KeyLocations group = groups[indexOf(key)];
    if (group != null) {
      group.remove(key);
    }
  }

  @Override
  public boolean onHeap() {
    return true;
  }

  @Override
  public void startGeneration(long generation) {
    Arrays.fill(groups, null);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    KeyedStateCheckpointOutputStream out = context.getRawKeyedOperatorStateOutput();
    DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out, 64 * 1024));
    for (int keyGroup : out.getKeyGroupList()) {
      data.flush();
      out.startNewKeyGroup(keyGroup);
      data.writeInt(FORMAT);
      KeyLocations group = groups[keyGroup - range.getStartKeyGroup()];
      (group == null ? new KeyLocations() : group).writeTo(data);
    }
    data.flush();
  }

  @Override
  public void removeIf(Predicate<String> keys) {
    for (KeyLocations group : groups) {
      if (group == null) {
        continue;
      }
      List<String> removed = new ArrayList<>();
      group.forEach(
          (key, fileId, position) -> {
            if (keys.test(key)) {
              removed.add(key);
            }
          });
      removed.forEach(group::remove);
    }
  }

  @Override
  public void drainTo(EntryConsumer consumer) throws IOException {
    for (KeyLocations group : groups) {
      if (group == null) {
        continue;
      }
      IOException[] failure = {null};
      group.forEach(
          (key, fileId, position) -> {
            if (failure[0] == null) {
              try {
                consumer.accept(key, new RowLocation(fileId, position));
              } catch (IOException e) {
                failure[0] = e;
              }
            }
          });
      if (failure[0] != null) {
        throw failure[0];
      }
    }
    startGeneration(0);
  }

  private int indexOf(String key) {
    return KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism) - range.getStartKeyGroup();
  }
}
