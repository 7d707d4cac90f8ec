/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.sink.upsert.UpsertWriterState;
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

/**
 * The operator state of a dynamic sink's upsert writer subtask, beside its key index: the sink's
 * app id, where the index lives, and per table the version its index has taken in and the writes of
 * checkpoints whose commit is not known yet. Union lists, so every subtask restores every table
 * after a rescale: a table's least index version (applying a version twice changes nothing), its
 * last hand-over, and all its pending writes.
 */
final class DynamicUpsertState {

  private static final int FORMAT = 1;

  private final ListState<String> appIds;
  private final ListState<byte[]> tables;

  /**
   * What a subtask restored.
   *
   * @param appId the sink's app id, null when nothing was restored
   * @param onHeap whether the restored index lived on the heap
   * @param tables each table's restored state, by name
   */
  record Restored(String appId, boolean onHeap, Map<String, UpsertWriterState.Restored> tables) {}

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
    for (byte[] bytes : tables.get()) {
      DataInputDeserializer in = new DataInputDeserializer(bytes);
      int format = in.readInt();
      if (format != FORMAT) {
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
        restored.merge(
            table,
            new UpsertWriterState.Restored(
                true, indexVersion, 0, lastResult, onHeap, appId, pending),
            DynamicUpsertState::union);
      }
    }
    return new Restored(appId, onHeap, restored);
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

  void snapshot(String appId, boolean onHeap, Map<String, UpsertWriterState.Restored> byTable)
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
    }
    tables.update(List.of(out.getCopyOfBuffer()));
  }
}
