/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * The write results of each table since its last version, and when that version was made: a table
 * gets its next version at the first checkpoint at least {@link DynamicSinkOptions#COMMIT_INTERVAL}
 * after it (at once, with an interval of 0, or with none made in this run yet), or when the results
 * truncate or drop it or carry a rewrite of the upsert writers' compaction (which read the table as
 * committed, and is committed after the changes it follows). Until then its results wait here and
 * in the aggregator's state, so that a restore finds them as it finds any checkpoint's files.
 *
 * <p>The last versions' moments are kept only while they still hold a table back: one entry per
 * table that committed less than its interval ago.
 */
final class WaitingResults {

  private static final ListStateDescriptor<byte[]> STATE =
      new ListStateDescriptor<>(
          "delta-dynamic-waiting-results", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  private final DynamicSinkConfig config;
  private final long defaultIntervalMillis;
  private final DynamicSerializers.WriteResults serializer = new DynamicSerializers.WriteResults();
  private final Map<String, List<DynamicWriteResult>> waiting = new LinkedHashMap<>();
  private final Map<String, Long> lastVersionMillis = new HashMap<>();
  private final ListState<byte[]> state;

  private WaitingResults(DynamicSinkConfig config, ListState<byte[]> state) {
    this.config = config;
    this.state = state;
    this.defaultIntervalMillis =
        config.sinkOptions().get(DynamicSinkOptions.COMMIT_INTERVAL).toMillis();
  }

  /** The results that waited when the checkpoint the aggregator starts from was taken. */
  static WaitingResults restore(DynamicSinkConfig config, StateInitializationContext context)
      throws Exception {
    WaitingResults results =
        new WaitingResults(config, context.getOperatorStateStore().getListState(STATE));
    for (byte[] bytes : results.state.get()) {
      DataInputDeserializer in = new DataInputDeserializer(bytes);
      int version = in.readInt();
      byte[] result = new byte[bytes.length - Integer.BYTES];
      in.readFully(result);
      results.add(results.serializer.deserialize(version, result));
    }
    return results;
  }

  /** Adds a writer subtask's results of one table. */
  void add(DynamicWriteResult result) {
    waiting.computeIfAbsent(result.table(), table -> new ArrayList<>()).add(result);
  }

  /**
   * Takes the results of the tables due for a version at {@code nowMillis}, table by table; the
   * others keep waiting.
   *
   * @param all whether every table is due (the input ended)
   */
  Map<String, List<DynamicWriteResult>> takeDue(long nowMillis, boolean all) {
    Map<String, List<DynamicWriteResult>> due = new LinkedHashMap<>();
    Iterator<Map.Entry<String, List<DynamicWriteResult>>> it = waiting.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, List<DynamicWriteResult>> entry = it.next();
      String table = entry.getKey();
      if (all || endsWaiting(entry.getValue()) || intervalPassed(table, nowMillis)) {
        due.put(table, entry.getValue());
        it.remove();
        if (intervalMillis(table) > 0) {
          lastVersionMillis.put(table, nowMillis);
        }
      }
    }
    lastVersionMillis
        .entrySet()
        .removeIf(last -> nowMillis - last.getValue() >= intervalMillis(last.getKey()));
    return due;
  }

  /** Keeps the waiting results in the aggregator's state. */
  void snapshot() throws Exception {
    List<byte[]> entries = new ArrayList<>();
    for (List<DynamicWriteResult> results : waiting.values()) {
      for (DynamicWriteResult result : results) {
        byte[] bytes = serializer.serialize(result);
        DataOutputSerializer out = new DataOutputSerializer(bytes.length + Integer.BYTES);
        out.writeInt(serializer.getVersion());
        out.write(bytes);
        entries.add(out.getCopyOfBuffer());
      }
    }
    state.update(entries);
  }

  private boolean intervalPassed(String table, long nowMillis) {
    Long last = lastVersionMillis.get(table);
    return last == null || nowMillis - last >= intervalMillis(table);
  }

  private static boolean endsWaiting(List<DynamicWriteResult> results) {
    return results.stream()
        .anyMatch(
            r -> r.truncates() || r.dropsTableId() != null || !r.deletes().rewrites().isEmpty());
  }

  private long intervalMillis(String table) {
    return config
        .ownOption(table, DynamicSinkOptions.COMMIT_INTERVAL)
        .map(Duration::toMillis)
        .orElse(defaultIntervalMillis);
  }
}
