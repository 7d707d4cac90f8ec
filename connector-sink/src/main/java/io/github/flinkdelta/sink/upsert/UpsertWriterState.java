/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.PendingWrites;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The operator state of an upsert writer subtask, beside its key index: the table version the index
 * has taken in, the index's generation and where it lives, the sink's app id, and the writes of
 * checkpoints whose commit is not known yet. Union lists, so every subtask restores all of them
 * after a rescale.
 */
@Internal
public final class UpsertWriterState {

  /** Where the index's entries live, as the state records it. */
  private static final long IN_BACKEND = 0;

  private static final long HEAP = 1;

  private final ListState<Long> indexVersions;

  /** Generation of the index, then two fields no longer used, then where the index lives. */
  private final ListState<long[]> rebuilds;

  private final ListState<String> appIds;
  private final ListState<byte[]> pendingWrites;

  /**
   * What a subtask restored.
   *
   * @param any whether an index was restored at all
   * @param indexVersion the least index version of the restored subtasks (applying a version twice
   *     changes nothing), -1 when nothing was restored
   * @param generation the index's generation
   * @param lastResult the last checkpoint whose result a subtask handed on, -1 for none
   * @param onHeap whether the restored index lived on the heap
   * @param appId the sink's app id, null when the state did not keep it
   * @param pending the writes of checkpoints whose commit is not known yet
   */
  public record Restored(
      boolean any,
      long indexVersion,
      long generation,
      long lastResult,
      boolean onHeap,
      String appId,
      PendingWrites pending) {}

  UpsertWriterState(OperatorStateStore store) throws Exception {
    indexVersions =
        store.getUnionListState(
            new ListStateDescriptor<>("delta-upsert-index-version", LongSerializer.INSTANCE));
    rebuilds =
        store.getUnionListState(
            new ListStateDescriptor<>(
                "delta-upsert-index-rebuilds", LongPrimitiveArraySerializer.INSTANCE));
    appIds =
        store.getUnionListState(
            new ListStateDescriptor<>("delta-upsert-app-id", StringSerializer.INSTANCE));
    pendingWrites =
        store.getUnionListState(
            new ListStateDescriptor<>(
                "delta-upsert-pending-writes", BytePrimitiveArraySerializer.INSTANCE));
  }

  Restored restore() throws Exception {
    long indexVersion = Long.MAX_VALUE;
    for (Long version : indexVersions.get()) {
      indexVersion = Math.min(indexVersion, version);
    }
    long generation = 0;
    long lastResult = -1;
    boolean onHeap = false;
    for (long[] rebuild : rebuilds.get()) {
      generation = Math.max(generation, rebuild[0]);
      lastResult = Math.max(lastResult, rebuild[2]);
      // State of connector versions before the heap index has three fields.
      onHeap |= rebuild.length > 3 && rebuild[3] == HEAP;
    }
    String appId = null;
    for (String id : appIds.get()) {
      appId = id;
    }
    PendingWrites pending = new PendingWrites();
    for (byte[] bytes : pendingWrites.get()) {
      pending.addAll(PendingWrites.readFrom(new DataInputDeserializer(bytes)));
    }
    boolean any = indexVersion != Long.MAX_VALUE;
    return new Restored(
        any, any ? indexVersion : -1, generation, lastResult, onHeap, appId, pending);
  }

  void snapshot(Restored table) throws Exception {
    indexVersions.update(List.of(table.indexVersion()));
    rebuilds.update(
        List.of(
            new long[] {
              table.generation(), -1, table.lastResult(), table.onHeap() ? HEAP : IN_BACKEND
            }));
    appIds.update(table.appId() == null ? List.of() : List.of(table.appId()));
    DataOutputSerializer out = new DataOutputSerializer(64);
    table.pending().writeTo(out);
    pendingWrites.update(List.of(out.getCopyOfBuffer()));
  }
}
