/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The upsert writer operator in Flink's keyed operator harness, with each kind of key index: what
 * it hands on at a barrier, what its snapshot restores, and how its index follows its keys when the
 * job is rescaled.
 */
class UpsertWriterOperatorTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "v"});
  private static final int MAX_PARALLELISM = 128;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"heap", "state-backend"})
  void aChangeAfterARestoreDeletesTheRowTheRestoredIndexPointsAt(String keyIndex) throws Exception {
    DeltaSinkConfig config = config(keyIndex);
    DeltaWriteResult first;
    OperatorSubtaskState state;
    try (var harness = harness(config, 1, 0, null)) {
      harness.processElement(row(RowKind.INSERT, 1, "a"), 0);
      harness.processElement(row(RowKind.INSERT, 2, "b"), 0);
      harness.processElement(row(RowKind.INSERT, 3, "c"), 0);
      first = barrier(harness, 1);
      state = harness.snapshot(1, 1);
    }

    DeltaWriteResult second;
    try (var harness = harness(config, 1, 0, state)) {
      harness.processElement(row(RowKind.UPDATE_AFTER, 1, "a2"), 0);
      harness.processElement(row(RowKind.DELETE, 3, "c"), 0);
      second = barrier(harness, 2);
    }

    assertThat(first.files().numRecords()).isEqualTo(3);
    assertThat(first.deletes().isEmpty()).isTrue();
    assertThat(second.files().numRecords()).isEqualTo(1);
    assertThat(positions(second, onlyFile(first))).containsExactly(0L, 2L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "state-backend"})
  void anIndexRestoredIntoTheOtherKindMovesEveryKeyOver(String restoredFrom) throws Exception {
    String restoredInto = restoredFrom.equals("heap") ? "state-backend" : "heap";
    DeltaWriteResult first;
    OperatorSubtaskState state;
    try (var harness = harness(config(restoredFrom), 1, 0, null)) {
      for (int id = 0; id < 20; id++) {
        harness.processElement(row(RowKind.INSERT, id, "v" + id), 0);
      }
      first = barrier(harness, 1);
      state = harness.snapshot(1, 1);
    }

    DeltaWriteResult second;
    try (var harness = harness(config(restoredInto), 1, 0, state)) {
      for (int id = 0; id < 20; id += 5) {
        harness.processElement(row(RowKind.DELETE, id, "v" + id), 0);
      }
      second = barrier(harness, 2);
    }

    assertThat(positions(second, onlyFile(first))).containsExactly(0L, 5L, 10L, 15L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "state-backend"})
  void aKeyReplacedTwiceInOneCheckpointLeavesOneLiveRow(String keyIndex) throws Exception {
    DeltaWriteResult result;
    try (var harness = harness(config(keyIndex), 1, 0, null)) {
      harness.processElement(row(RowKind.INSERT, 7, "a"), 0);
      harness.processElement(row(RowKind.UPDATE_AFTER, 7, "b"), 0);
      harness.processElement(row(RowKind.UPDATE_AFTER, 7, "c"), 0);
      result = barrier(harness, 1);
    }

    assertThat(result.files().numRecords()).isEqualTo(3);
    assertThat(positions(result, onlyFile(result))).containsExactly(0L, 1L);
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "state-backend"})
  void afterAScaleOutEachKeysRowIsDeletedByTheSubtaskThatOwnsItAndOnlyOnce(String keyIndex)
      throws Exception {
    DeltaSinkConfig config = config(keyIndex);
    int keys = 40;
    DeltaWriteResult written;
    OperatorSubtaskState state;
    try (var harness = harness(config, 1, 0, null)) {
      for (int id = 0; id < keys; id++) {
        harness.processElement(row(RowKind.INSERT, id, "v" + id), 0);
      }
      written = barrier(harness, 1);
      state = harness.snapshot(1, 1);
    }

    PrimaryKeySelector selector = new PrimaryKeySelector(config.primaryKey());
    Map<Integer, List<Long>> deletedBySubtask = new HashMap<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      OperatorSubtaskState share =
          AbstractStreamOperatorTestHarness.repartitionOperatorState(
              state, MAX_PARALLELISM, 1, 2, subtask);
      try (var harness = harness(config, 2, subtask, share)) {
        for (int id = 0; id < keys; id++) {
          RowData delete = row(RowKind.DELETE, id, "v" + id);
          int owner =
              KeyGroupRangeAssignment.assignKeyToParallelOperator(
                  selector.getKey(delete), MAX_PARALLELISM, 2);
          if (owner == subtask) {
            harness.processElement(delete, 0);
          }
        }
        deletedBySubtask.put(subtask, positions(barrier(harness, 2), onlyFile(written)));
      }
    }

    List<Long> deleted = new ArrayList<>(deletedBySubtask.get(0));
    deleted.addAll(deletedBySubtask.get(1));
    assertThat(deletedBySubtask.get(0)).isNotEmpty();
    assertThat(deletedBySubtask.get(1)).isNotEmpty();
    assertThat(deleted)
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, keys).boxed().toList());
  }

  private DeltaSinkConfig config(String keyIndex) {
    Configuration options = new Configuration();
    options.setString(DeltaSinkOptions.UPSERT_KEY_INDEX.key(), keyIndex);
    return SinkConfigs.upsert(dir.resolve("t").toUri().toString(), TYPE, List.of("id"), options);
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness(
      DeltaSinkConfig config, int parallelism, int subtask, OperatorSubtaskState state)
      throws Exception {
    var harness =
        new KeyedOneInputStreamOperatorTestHarness<>(
            new UpsertWriterOperator(config),
            new PrimaryKeySelector(config.primaryKey()),
            Types.STRING,
            MAX_PARALLELISM,
            parallelism,
            subtask);
    harness.setup();
    if (state == null) {
      harness.initializeEmptyState();
    } else {
      harness.initializeState(state);
    }
    harness.open();
    return harness;
  }

  /** The write result the operator hands on at checkpoint {@code checkpoint}'s barrier. */
  private static DeltaWriteResult barrier(
      KeyedOneInputStreamOperatorTestHarness<String, RowData, RowData> harness, long checkpoint)
      throws Exception {
    harness.getOutput().clear();
    harness.prepareSnapshotPreBarrier(checkpoint);
    List<RowData> out = harness.extractOutputValues();
    assertThat(out).hasSize(1);
    return UpsertWriterOperator.resultOf(out.get(0));
  }

  private static DataFile onlyFile(DeltaWriteResult result) {
    assertThat(result.files().toList()).hasSize(1);
    return result.files().toList().get(0);
  }

  /** The positions {@code result} deletes in {@code file}, in order. */
  private static List<Long> positions(DeltaWriteResult result, DataFile file) {
    RowPositions positions = result.deletes().byFile().get(FileIds.of(file.path()));
    List<Long> list = new ArrayList<>();
    if (positions != null) {
      positions.iterator().forEachRemaining((long position) -> list.add(position));
    }
    return list;
  }

  private static RowData row(RowKind kind, long id, String value) {
    GenericRowData row = GenericRowData.of(id, StringData.fromString(value));
    row.setRowKind(kind);
    return row;
  }
}
