/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic sink's router in Flink's operator test harness: a dropped table's drop goes on with
 * the checkpoint's results after the table's rows, and the rows after it stay held, through a
 * restore from the checkpoint, until the table is gone; then they create it anew. A generator that
 * keeps state gets back what every subtask held.
 */
class DynamicRecordRouterTest {

  private static final RowType ROW =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  @TempDir Path root;

  @Test
  void rowsAfterADropWaitThroughARestoreUntilTheTableIsGoneThenCreateItAnew() throws Exception {
    DynamicSinkConfig config =
        config(Map.of(DynamicSinkOptions.TABLE_EVENTS.key(), TableEventPolicy.APPLY.name()));
    TableDrops drops = new TableDrops(config);
    OperatorSubtaskState state;
    String dropped;
    try (var router = harness(config)) {
      router.open();
      for (long i = 0; i < 10; i++) {
        router.processElement(new StreamRecord<>(i));
      }
      dropped = drops.idOf("db.t");
      router.prepareSnapshotPreBarrier(1);
      assertThat(results(router))
          .containsExactly(new HandedOn("db.t", 5, null), new HandedOn("db.t", 0, dropped));
      state = router.snapshot(1, 1);
    }

    try (var router = harness(config)) {
      router.initializeState(state);
      router.open();
      router.processElement(new StreamRecord<>(100L));
      router.prepareSnapshotPreBarrier(2);
      assertThat(results(router)).as("the table is not dropped yet").isEmpty();

      assertThat(drops.dropIfStill("db.t", dropped)).isTrue();
      // The router looks for the drop at most twice a second.
      Thread.sleep(600);
      router.processElement(new StreamRecord<>(101L));
      router.prepareSnapshotPreBarrier(3);
      assertThat(results(router))
          .as("rows 5 to 9, released into the table created anew")
          .containsExactly(new HandedOn("db.t", 5, null));
      assertThat(drops.idOf("db.t")).isNotNull().isNotEqualTo(dropped);
    }
  }

  @Test
  void aCheckpointedGeneratorGetsBackWhatEverySubtaskHeldAfterARescale() throws Exception {
    DynamicSinkConfig config = config(Map.of());
    List<OperatorSubtaskState> states = new ArrayList<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      try (var router =
          new OneInputStreamOperatorTestHarness<>(
              new DynamicRecordRouter<>(config, new Remembering()), 2, 2, subtask)) {
        router.open();
        router.processElement(new StreamRecord<>(10L * (subtask + 1)));
        router.processElement(new StreamRecord<>(10L * (subtask + 1) + 1));
        states.add(router.snapshot(1, 1));
      }
    }

    Remembering restored = new Remembering();
    try (var router =
        new OneInputStreamOperatorTestHarness<>(
            new DynamicRecordRouter<>(config, restored), 2, 1, 0)) {
      router.initializeState(
          AbstractStreamOperatorTestHarness.repartitionOperatorState(
              AbstractStreamOperatorTestHarness.repackageState(
                  states.toArray(OperatorSubtaskState[]::new)),
              2,
              2,
              1,
              0));
      router.open();
      assertThat(restored.restored).containsExactlyInAnyOrder("10,11", "20,21");
    }
  }

  private DynamicSinkConfig config(Map<String, String> options) {
    return new DynamicSinkConfig(
        new DynamicTableNames.UnderRoot(root.toUri().toString()),
        options,
        Map.of(),
        Map.of(),
        null,
        "app");
  }

  /** What a write result says, without its files. */
  private record HandedOn(String table, long rows, String dropsTableId) {}

  private static List<HandedOn> results(
      OneInputStreamOperatorTestHarness<Long, DynamicRecord> router) throws Exception {
    DynamicSerializers.WriteResults serializer = new DynamicSerializers.WriteResults();
    List<HandedOn> results = new ArrayList<>();
    var output = router.getSideOutput(DynamicRecordRouter.APPEND_RESULTS);
    if (output != null) {
      for (StreamRecord<RowData> row : output) {
        DynamicWriteResult result =
            serializer.deserialize(serializer.getVersion(), row.getValue().getBinary(0));
        results.add(
            new HandedOn(result.table(), result.files().numRecords(), result.dropsTableId()));
      }
      output.clear();
    }
    return results;
  }

  private static OneInputStreamOperatorTestHarness<Long, DynamicRecord> harness(
      DynamicSinkConfig config) throws Exception {
    return new OneInputStreamOperatorTestHarness<>(
        new DynamicRecordRouter<>(config, new DropAfterFive()), LongSerializer.INSTANCE);
  }

  /** Writes nothing; remembers the elements it saw, and what it got back on a restore. */
  private static final class Remembering
      implements DynamicRecordGenerator<Long>, DynamicRecordGenerator.Checkpointed {
    private final List<Long> seen = new ArrayList<>();
    private final List<String> restored = new ArrayList<>();

    @Override
    public void generate(Long element, Output out) {
      seen.add(element);
    }

    @Override
    public byte[] snapshot() {
      return String.join(",", seen.stream().map(String::valueOf).toList())
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void restore(List<byte[]> snapshots) {
      snapshots.forEach(
          bytes -> restored.add(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)));
    }
  }

  /**
   * Elements below 100 are rows of {@code db.t}, the table dropped after row 4; elements from 100
   * on go to no table.
   */
  private static final class DropAfterFive implements DynamicRecordGenerator<Long> {
    private transient DynamicTable table;

    @Override
    public void generate(Long element, Output out) throws Exception {
      if (element >= 100) {
        return;
      }
      if (table == null) {
        table = DynamicTable.of("db.t", ROW);
      }
      if (element == 5) {
        out.apply(TableChange.dropTable("db.t"));
      }
      out.collect(new DynamicRecord(table, GenericRowData.of(element)));
    }
  }
}
