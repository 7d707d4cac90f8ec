/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.sink.upsert.UpsertWriterState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.KeyGroupRange;

/**
 * The operator state of a dynamic sink's upsert writer subtask, beside its key index: the sink's
 * app id, where the index lives, and per table the version its index has taken in and the writes of
 * checkpoints whose commit is not known yet. Union lists, so every subtask restores every table
 * after a rescale: a table's least index version (applying a version twice changes nothing), its
 * last hand-over, and all its pending writes.
 */
final class DynamicUpsertState {

  /** The format that names each table's id; format 1 did not. */
  private static final int FORMAT = 2;

  private final ListState<String> appIds;
  private final ListState<byte[]> tables;

  /**
   * What a subtask restored.
   *
   * @param appId the sink's app id, null when nothing was restored
   * @param onHeap whether the restored index lived on the heap
   * @param tables each table's restored state, by name
   * @param covered per table, the key groups whose entries of the table the index holds
   * @param tableIds per table, the id of the table the state is of: absent in format 1, empty when
   *     subtasks kept state of different tables under the name (one dropped since)
   */
  record Restored(
      String appId,
      boolean onHeap,
      Map<String, UpsertWriterState.Restored> tables,
      Map<String, List<KeyGroupRange>> covered,
      Map<String, String> tableIds) {}

  DynamicUpsertState(OperatorStateStore store) throws Exception {
    appIds =
        store.getUnionListState(
            new ListStateDescriptor<>("delta-dynamic-upsert-app-id", StringSerializer.INSTANCE));
    tables =
        store.getUnionListState(
            new ListStateDescriptor<>(
                "delta-dynamic-upsert-tables", BytePrimitiveArraySerializer.INSTANCE));
  }

  Restored restore() throws Exception {
    String appId = null;
    for (String id : appIds.get()) {
      appId = id;
    }
    boolean onHeap = false;
    Map<String, UpsertWriterState.Restored> restored = new HashMap<>();
    Map<String, List<KeyGroupRange>> covered = new HashMap<>();
    Map<String, String> tableIds = new HashMap<>();
    for (byte[] bytes : tables.get()) {
      DataInputDeserializer in = new DataInputDeserializer(bytes);
      int format = in.readInt();
      if (format != FORMAT && format != 1) {
        throw new IllegalStateException(
            "The dynamic Delta sink's upsert state has format "
                + format
                + ", which this connector version cannot read; restore it with the version that"
                + " wrote it");
      }
      onHeap = in.readBoolean();
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        String table = StateStrings.read(in, "dynamic sink");
        long indexVersion = in.readLong();
        long lastResult = in.readLong();
        PendingWrites pending = PendingWrites.readFrom(in);
        List<KeyGroupRange> ranges = covered.computeIfAbsent(table, t -> new ArrayList<>());
        int rangeCount = in.readInt();
        for (int r = 0; r < rangeCount; r++) {
          ranges.add(new KeyGroupRange(in.readInt(), in.readInt()));
        }
        if (format == FORMAT && in.readBoolean()) {
          // Subtasks that disagree (one took the table's drop in, another not yet) name none.
          tableIds.merge(
              table, StateStrings.read(in, "dynamic sink"), (a, b) -> a.equals(b) ? a : "");
        }
        restored.merge(
            table,
            new UpsertWriterState.Restored(
                true, indexVersion, 0, lastResult, onHeap, appId, pending),
            DynamicUpsertState::union);
      }
    }
    covered.replaceAll((table, ranges) -> merged(ranges));
    return new Restored(appId, onHeap, restored, covered, tableIds);
  }

  /** {@code ranges} as the fewest ranges that hold the same key groups, in order. */
  static List<KeyGroupRange> merged(List<KeyGroupRange> ranges) {
    List<KeyGroupRange> sorted = new ArrayList<>(ranges);
    sorted.removeIf(range -> range.getNumberOfKeyGroups() == 0);
    sorted.sort(java.util.Comparator.comparingInt(KeyGroupRange::getStartKeyGroup));
    List<KeyGroupRange> merged = new ArrayList<>();
    for (KeyGroupRange range : sorted) {
      KeyGroupRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && range.getStartKeyGroup() <= last.getEndKeyGroup() + 1) {
        merged.set(
            merged.size() - 1,
            new KeyGroupRange(
                last.getStartKeyGroup(), Math.max(last.getEndKeyGroup(), range.getEndKeyGroup())));
      } else {
        merged.add(range);
      }
    }
    return merged;
  }

  private static UpsertWriterState.Restored union(
      UpsertWriterState.Restored a, UpsertWriterState.Restored b) {
    PendingWrites pending = new PendingWrites();
    pending.addAll(a.pending());
    pending.addAll(b.pending());
    return new UpsertWriterState.Restored(
        true,
        Math.min(a.indexVersion(), b.indexVersion()),
        0,
        Math.max(a.lastResult(), b.lastResult()),
        a.onHeap(),
        a.appId(),
        pending);
  }

  void snapshot(
      String appId,
      boolean onHeap,
      Map<String, UpsertWriterState.Restored> byTable,
      Map<String, List<KeyGroupRange>> covered,
      Map<String, String> tableIds)
      throws Exception {
    appIds.update(List.of(appId));
    DataOutputSerializer out = new DataOutputSerializer(256);
    out.writeInt(FORMAT);
    out.writeBoolean(onHeap);
    out.writeInt(byTable.size());
    for (Map.Entry<String, UpsertWriterState.Restored> table : byTable.entrySet()) {
      StateStrings.write(table.getKey(), out);
      out.writeLong(table.getValue().indexVersion());
      out.writeLong(table.getValue().lastResult());
      table.getValue().pending().writeTo(out);
      List<KeyGroupRange> ranges = covered.getOrDefault(table.getKey(), List.of());
      out.writeInt(ranges.size());
      for (KeyGroupRange range : ranges) {
        out.writeInt(range.getStartKeyGroup());
        out.writeInt(range.getEndKeyGroup());
      }
      String tableId = tableIds.get(table.getKey());
      out.writeBoolean(tableId != null);
      if (tableId != null) {
        StateStrings.write(tableId, out);
      }
    }
    tables.update(List.of(out.getCopyOfBuffer()));
  }
}
