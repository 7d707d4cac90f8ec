/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The truncations a router subtask took since the last checkpoint barrier, and the records of those
 * tables that followed them. A truncation is committed after the checkpoint's own version of the
 * table, so a record that follows it must land in a later checkpoint: it is held until the barrier
 * has passed, kept in the checkpoint's state, and released before anything else the subtask does
 * next. The records of other tables go on meanwhile.
 *
 * <p>Held records stay in the order they came; a second truncation of a table drops the records of
 * it held since the first, which the second removes anyway. The state is one element per subtask,
 * so that a rescale moves a subtask's held records whole and in order.
 */
final class HeldRecords {

  private final DynamicRecordType.Serializer serializer = new DynamicRecordType.Serializer();
  private final ListState<byte[]> state;

  /** Tables truncated since the last barrier. */
  private final Set<String> truncated = new LinkedHashSet<>();

  /** Records of {@link #truncated} tables after their truncation, in order. */
  private List<DynamicRecord> held = new ArrayList<>();

  /** Records held at the last barrier, or restored: they go on before anything else. */
  private List<DynamicRecord> released = new ArrayList<>();

  HeldRecords(OperatorStateStore store, boolean restored) throws Exception {
    state =
        store.getListState(
            new ListStateDescriptor<>(
                "delta-dynamic-router-held-records", BytePrimitiveArraySerializer.INSTANCE));
    if (restored) {
      for (byte[] bytes : state.get()) {
        released.addAll(read(bytes));
      }
    }
  }

  /** Table {@code table} is truncated once the rows before this call are committed. */
  void truncate(String table) {
    truncated.add(table);
    held.removeIf(record -> record.table().name().equals(table));
  }

  /** Holds {@code record} when its table was truncated since the barrier; false otherwise. */
  boolean hold(DynamicRecord record) {
    if (truncated.isEmpty() || !truncated.contains(record.table().name())) {
      return false;
    }
    held.add(serializer.copy(record));
    return true;
  }

  /** The records released at the last barrier (or restored), once; empty afterwards. */
  List<DynamicRecord> takeReleased() {
    if (released.isEmpty()) {
      return List.of();
    }
    List<DynamicRecord> taken = released;
    released = new ArrayList<>();
    return taken;
  }

  /**
   * At the barrier: the tables truncated since the last one, and their held records become the
   * released ones, to go on once the barrier has passed.
   */
  Set<String> barrier() {
    if (truncated.isEmpty()) {
      return Set.of();
    }
    Set<String> tables = Collections.unmodifiableSet(new LinkedHashSet<>(truncated));
    truncated.clear();
    released.addAll(held);
    held = new ArrayList<>();
    return tables;
  }

  /**
   * At the end of a bounded input: no checkpoint follows to commit records held after a truncation.
   *
   * @throws IllegalStateException when records are held
   */
  void checkNoneHeldAtEnd() {
    if (!held.isEmpty()) {
      throw new IllegalStateException(
          String.format(
              "The input of the dynamic Delta sink ended %d rows after a truncation of %s in its"
                  + " last checkpoint interval; the rows would have to be committed after the"
                  + " truncation, in a checkpoint that never comes. Nothing of them was committed."
                  + " Let a checkpoint pass after the truncation before the input ends, or drop"
                  + " the truncation.",
              held.size(), truncated));
    }
  }

  /** Number of records held or waiting for release. */
  int size() {
    return held.size() + released.size();
  }

  void snapshot() throws Exception {
    if (released.isEmpty()) {
      state.clear();
    } else {
      state.update(List.of(write(released)));
    }
  }

  private byte[] write(List<DynamicRecord> records) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    out.writeInt(records.size());
    for (DynamicRecord record : records) {
      serializer.serialize(record, out);
    }
    return out.getCopyOfBuffer();
  }

  private List<DynamicRecord> read(byte[] bytes) throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    int count = in.readInt();
    List<DynamicRecord> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      records.add(serializer.deserialize(in));
    }
    return records;
  }
}
