/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * Two tables dropped at the source twice: element {@code i} is a row of the appending table {@code
 * <prefix>events} and an update of key {@code keyOf(i)} in {@code <prefix>keyed}; both tables are
 * dropped before elements {@code first} and {@code second}. From {@code second} on, the events
 * table is partitioned by {@code bucket} and the keyed table holds {@code v} as a string: shapes
 * the dropped tables could not evolve into. A failure follows element {@code (first + second) / 2}
 * and, once, the second drop and its element, so that both are sent again.
 */
public final class DroppedTables implements DynamicRecordGenerator<Long> {

  public static final int BUCKETS = 5;

  private static final RowType KEYED =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new BigIntType()}, new String[] {"id", "v"});
  private static final RowType KEYED_AFTER =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "v"});

  private final FaultCounter injected;
  private final String prefix;
  private final long first;
  private final long second;
  private final long count;
  private transient DynamicTable events;
  private transient DynamicTable keyed;
  private transient DynamicTable eventsAfter;
  private transient DynamicTable keyedAfter;

  /**
   * Elements {@code 0 .. count - 1}, the tables dropped before {@code first} and {@code second}.
   */
  public DroppedTables(FaultCounter injected, String prefix, long first, long second, long count) {
    this.injected = injected;
    this.prefix = prefix;
    this.first = first;
    this.second = second;
    this.count = count;
  }

  public String events() {
    return prefix + "events";
  }

  public String keyed() {
    return prefix + "keyed";
  }

  /** The rows of the events table after the second drop. */
  public List<List<Object>> keptEvents() {
    return TestRows.expected(count, BUCKETS).subList((int) second, (int) count);
  }

  /** The row element {@code i} leaves in the keyed table after the second drop. */
  public List<Object> keyedRow(long i) {
    return List.of(keyOf(i), "v-" + i);
  }

  /** The last row of each key of the keyed table written after the second drop. */
  public Map<Long, List<Object>> latestKeyed() {
    Map<Long, List<Object>> latest = new TreeMap<>();
    for (long i = second; i < count; i++) {
      latest.put(keyOf(i), keyedRow(i));
    }
    return latest;
  }

  private long keyOf(long i) {
    return i < second ? i % 50 : i % 20;
  }

  @Override
  public void generate(Long element, Output out) throws Exception {
    if (events == null) {
      events = DynamicTable.of(events(), TestRows.TYPE);
      keyed = DynamicTable.of(keyed(), KEYED).withPrimaryKey("id");
      eventsAfter = events.withPartitionColumns("bucket");
      keyedAfter = DynamicTable.of(keyed(), KEYED_AFTER).withPrimaryKey("id");
    }
    long i = element;
    if (i == first || i == second) {
      out.apply(TableChange.dropTable(events()));
      out.apply(TableChange.dropTable(keyed()));
    }
    boolean after = i >= second;
    out.collect(new DynamicRecord(after ? eventsAfter : events, TestRows.row(i, BUCKETS)));
    GenericRowData update =
        after
            ? GenericRowData.of(keyOf(i), StringData.fromString("v-" + i))
            : GenericRowData.of(keyOf(i), i);
    update.setRowKind(RowKind.UPDATE_AFTER);
    out.collect(new DynamicRecord(after ? keyedAfter : keyed, update));
    if ((i == (first + second) / 2 && injected.count() == 0)
        || (i == second && injected.count() == 1)) {
      injected.fire();
      throw new IllegalStateException("Injected failure after element " + i);
    }
  }
}
