/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The truncations and drops of tables a router subtask took, and what of those tables followed
 * them: records, and further changes. A truncation or drop is committed after the checkpoint's own
 * version of the table, so what follows it must land in a later checkpoint.
 *
 * <ul>
 *   <li>What follows a truncation is held until the barrier has passed, kept in the checkpoint's
 *       state, and released before anything else the subtask does next.
 *   <li>What follows a drop is held until the barrier has passed and then until the table's name no
 *       longer stands for the dropped table (the committer dropped it once the checkpoint
 *       completed): it creates the table anew.
 * </ul>
 *
 * <p>The records of other tables go on meanwhile. What is held stays in the order it came, a second
 * event of the table among it. The state is one element per subtask, so that a rescale moves a
 * subtask's held records whole and in order.
 */
final class HeldRecords {

  /** Marks the state format that holds drops; the first format began with a record count. */
  private static final int FORMAT_WITH_DROPS = -2;

  /**
   * A truncation or drop of a table that the router took.
   *
   * @param table the table's name as records give it
   * @param dropsTableId the id of the table a drop removes; null for a truncation
   */
  record TableEvent(String table, String dropsTableId) {
    static TableEvent truncation(String table) {
      return new TableEvent(table, null);
    }

    static TableEvent drop(String table, String tableId) {
      return new TableEvent(table, tableId);
    }

    boolean drops() {
      return dropsTableId != null;
    }
  }

  /** One table's event and what followed it. */
  private static final class Pending {
    final TableEvent event;

    /** Whether the event went on with a checkpoint's results. */
    boolean handedOn;

    /** Records ({@link DynamicRecord}) and changes ({@link TableChange}) of the table, in order. */
    final List<Object> items = new ArrayList<>();

    Pending(TableEvent event, boolean handedOn) {
      this.event = event;
      this.handedOn = handedOn;
    }
  }

  private final DynamicRecordType.Serializer serializer = new DynamicRecordType.Serializer();
  private final ListState<byte[]> state;

  /** Per table with an event, the event and what followed it; in the order the events came. */
  private final Map<String, Pending> pending = new LinkedHashMap<>();

  /** Items released at the last barrier, or restored, or by a drop done: they go on first. */
  private List<Object> released = new ArrayList<>();

  HeldRecords(OperatorStateStore store, boolean restored) throws Exception {
    state =
        store.getListState(
            new ListStateDescriptor<>(
                "delta-dynamic-router-held-records", BytePrimitiveArraySerializer.INSTANCE));
    if (restored) {
      for (byte[] bytes : state.get()) {
        read(bytes);
      }
    }
  }

  /**
   * Table {@code event.table()}, of which nothing is held, is truncated or dropped once the rows
   * before this call are committed.
   */
  void add(TableEvent event) {
    pending.put(event.table(), new Pending(event, false));
  }

  /** Whether what comes of {@code table} now is held. */
  boolean holds(String table) {
    return !pending.isEmpty() && pending.containsKey(table);
  }

  /** Holds {@code record} when its table has an event pending; false otherwise. */
  boolean hold(DynamicRecord record) {
    Pending held = pending.isEmpty() ? null : pending.get(record.table().name());
    if (held == null) {
      return false;
    }
    held.items.add(serializer.copy(record));
    return true;
  }

  /** Holds {@code change}, of a table that {@link #holds}. */
  void hold(TableChange change) {
    pending.get(change.table()).items.add(change);
  }

  /**
   * Releases what followed the drops handed on whose table is gone.
   *
   * @param stillHolds whether a table name still stands for the table of an id
   * @return the events of the drops done
   */
  List<TableEvent> releaseDropped(BiPredicate<String, String> stillHolds) {
    List<TableEvent> done = new ArrayList<>();
    Iterator<Pending> it = pending.values().iterator();
    while (it.hasNext()) {
      Pending drop = it.next();
      if (drop.handedOn && !stillHolds.test(drop.event.table(), drop.event.dropsTableId())) {
        released.addAll(drop.items);
        done.add(drop.event);
        it.remove();
      }
    }
    return done;
  }

  /** Whether drops handed on wait for their table to go. */
  boolean awaitsDrops() {
    return !pending.isEmpty() && pending.values().stream().anyMatch(p -> p.handedOn);
  }

  /** The items released since the last call, once; empty afterwards. */
  List<Object> takeReleased() {
    if (released.isEmpty()) {
      return List.of();
    }
    List<Object> taken = released;
    released = new ArrayList<>();
    return taken;
  }

  /**
   * At the barrier: the events since the last one, to go on with the checkpoint's results. What
   * followed a truncation is released, to go on once the barrier has passed; what follows a drop
   * stays held until the table is gone.
   */
  List<TableEvent> barrier() {
    List<TableEvent> events = new ArrayList<>();
    Iterator<Pending> it = pending.values().iterator();
    while (it.hasNext()) {
      Pending held = it.next();
      if (held.handedOn) {
        continue;
      }
      events.add(held.event);
      if (held.event.drops()) {
        held.handedOn = true;
      } else {
        released.addAll(held.items);
        it.remove();
      }
    }
    return events;
  }

  /**
   * At the end of a bounded input: no checkpoint follows to commit what was held after a table
   * event.
   *
   * @throws IllegalStateException when anything is held
   */
  void checkNoneHeldAtEnd() {
    List<String> tables = new ArrayList<>();
    int count = 0;
    for (Pending held : pending.values()) {
      if (!held.items.isEmpty()) {
        tables.add(held.event.table());
        count += held.items.size();
      }
    }
    if (count > 0) {
      throw new IllegalStateException(
          String.format(
              "The input of the dynamic Delta sink ended %d records or changes after a truncation"
                  + " or drop of %s in its last checkpoint interval; they would have to be"
                  + " committed after the truncation or drop, in a checkpoint that never comes."
                  + " Nothing of them was committed. Let a checkpoint pass after the truncation"
                  + " or drop before the input ends, or leave the event out.",
              count, tables));
    }
  }

  /** Number of records and changes held or waiting for release. */
  int size() {
    int size = released.size();
    for (Pending held : pending.values()) {
      size += held.items.size();
    }
    return size;
  }

  void snapshot() throws Exception {
    if (released.isEmpty() && pending.isEmpty()) {
      state.clear();
      return;
    }
    DataOutputSerializer out = new DataOutputSerializer(1024);
    out.writeInt(FORMAT_WITH_DROPS);
    writeItems(released, out);
    // Snapshots follow the barrier: every event pending is a drop handed on.
    out.writeInt(pending.size());
    for (Pending drop : pending.values()) {
      StateStrings.write(drop.event.table(), out);
      StateStrings.write(drop.event.dropsTableId(), out);
      writeItems(drop.items, out);
    }
    state.update(List.of(out.getCopyOfBuffer()));
  }

  private void read(byte[] bytes) throws IOException {
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    int first = in.readInt();
    if (first >= 0) {
      // The first format: the records released at the barrier, nothing else.
      for (int i = 0; i < first; i++) {
        released.add(serializer.deserialize(in));
      }
      return;
    }
    released.addAll(readItems(in));
    int drops = in.readInt();
    for (int i = 0; i < drops; i++) {
      String table = StateStrings.read(in, "dynamic sink");
      String tableId = StateStrings.read(in, "dynamic sink");
      Pending drop = new Pending(TableEvent.drop(table, tableId), true);
      drop.items.addAll(readItems(in));
      pending.put(table, drop);
    }
  }

  private void writeItems(List<Object> items, DataOutputSerializer out) throws IOException {
    out.writeInt(items.size());
    for (Object item : items) {
      if (item instanceof DynamicRecord record) {
        out.writeByte(0);
        serializer.serialize(record, out);
      } else {
        out.writeByte(1);
        TableChanges.write((TableChange) item, out);
      }
    }
  }

  private List<Object> readItems(DataInputDeserializer in) throws IOException {
    int count = in.readInt();
    List<Object> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      items.add(in.readByte() == 0 ? serializer.deserialize(in) : TableChanges.read(in));
    }
    return items;
  }
}
