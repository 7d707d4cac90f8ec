/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregator in Flink's operator test harness: one committable per checkpoint, the app id kept
 * in state, and the checks against the table when a job starts.
 */
class DeltaWriteResultAggregatorTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void theResultsOfEverySubtaskForACheckpointBecomeOneCommittable() throws Exception {
    try (var harness = harness(config(new Configuration()))) {
      harness.open();
      harness.processElement(result(1, 0, file("a", 10)));
      harness.processElement(result(2, 1, file("c", 1)));
      harness.processElement(result(1, 1, file("b", 5)));
      harness.prepareSnapshotPreBarrier(1);

      List<CommittableMessage<DeltaCommittable>> out = harness.extractOutputValues();
      assertThat(out).hasSize(2);
      assertThat(out.get(0)).isInstanceOf(CommittableSummary.class);
      DeltaCommittable committable = committable(out.get(1));
      assertThat(committable.checkpointId()).isEqualTo(1);
      assertThat(committable.files().toList())
          .extracting(DataFile::path)
          .containsExactly("a.parquet", "b.parquet");
      assertThat(committable.files().numRecords()).isEqualTo(15);
    }
  }

  @Test
  void aCheckpointWithoutResultsGetsAnEmptyCommittable() throws Exception {
    try (var harness = harness(config(new Configuration()))) {
      harness.open();
      harness.prepareSnapshotPreBarrier(1);
      harness.processElement(result(2, 0, file("b", 1)));
      harness.prepareSnapshotPreBarrier(2);
      harness.prepareSnapshotPreBarrier(3);

      List<DeltaCommittable> out = committables(harness);
      assertThat(out).extracting(DeltaCommittable::checkpointId).containsExactly(1L, 2L, 3L);
      assertThat(out).extracting(c -> c.files().size()).containsExactly(0, 1, 0);
    }
  }

  @Test
  void theEndOfInputEmitsEveryPendingCheckpointInOrder() throws Exception {
    try (var harness = harness(config(new Configuration()))) {
      harness.open();
      harness.processElement(result(3, 0, file("c", 1)));
      harness.processElement(result(2, 0, file("b", 1)));
      harness.endInput();

      assertThat(committables(harness))
          .extracting(DeltaCommittable::checkpointId)
          .containsExactly(2L, 3L);
    }
  }

  @Test
  void theAppIdMadeWhenTheJobFirstStartsSurvivesARestore() throws Exception {
    String appId;
    OperatorSubtaskState state;
    DeltaSinkConfig config = config(new Configuration());
    try (var first = harness(config)) {
      first.open();
      first.processElement(result(1, 0, file("a", 1)));
      first.prepareSnapshotPreBarrier(1);
      state = first.snapshot(1, 1);
      appId = committables(first).get(0).appId();
    }
    try (var restored = harness(config)) {
      restored.setRestoredCheckpointId(1);
      restored.initializeState(state);
      restored.open();
      restored.processElement(result(2, 0, file("b", 1)));
      restored.prepareSnapshotPreBarrier(2);

      assertThat(committables(restored).get(0).appId()).isEqualTo(appId);
    }
    // Another job, whose sink is built anew.
    try (var unrelated = harness(config(new Configuration()))) {
      unrelated.open();
      unrelated.processElement(result(1, 0, file("a", 1)));
      unrelated.prepareSnapshotPreBarrier(1);
      assertThat(committables(unrelated).get(0).appId()).isNotEqualTo(appId);
    }
  }

  @Test
  void stateOlderThanTheTableStopsTheJobWithWhatToDo() throws Exception {
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.APP_ID, "orders-job");
    DeltaSinkConfig config = config(options);
    OperatorSubtaskState state;
    try (var first = harness(config)) {
      first.open();
      state = first.snapshot(3, 3);
    }
    // The job went on to commit checkpoint 5, then was restored from its savepoint of 3.
    try (var table = TestTables.open(config.tablePath())) {
      TestTables.committed(table.commit("orders-job", 5, List.of(file("x", 1))));
    }
    try (var restored = harness(config)) {
      restored.setRestoredCheckpointId(3);
      assertThatThrownBy(
              () -> {
                restored.initializeState(state);
                restored.open();
              })
          .isInstanceOf(SuppressRestartsException.class)
          .hasStackTraceContaining(
              "already holds the commits of app id orders-job up to"
                  + " checkpoint 5, but this job was restored from checkpoint 3")
          .hasStackTraceContaining("'sink.app-id'");
    }
  }

  @Test
  void aConfiguredAppIdTheTableHoldsStopsAJobStartingWithoutState() throws Exception {
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.APP_ID, "reused");
    DeltaSinkConfig config = config(options);
    try (var table = TestTables.open(config.tablePath())) {
      TestTables.committed(table.commit("reused", 7, List.of(file("x", 1))));
    }
    try (var fresh = harness(config)) {
      assertThatThrownBy(fresh::open)
          .isInstanceOf(SuppressRestartsException.class)
          .hasStackTraceContaining("already holds commits of app id reused (up to checkpoint 7)");
    }
  }

  @Test
  void lastResultsTaggedWithACheckpointBeforeTheRestoredOneAreCommittedAfterIt() throws Exception {
    DeltaSinkConfig config = config(new Configuration());
    OperatorSubtaskState state;
    try (var first = harness(config)) {
      first.open();
      state = first.snapshot(12, 12);
    }
    try (var restored = harness(config)) {
      restored.initializeState(state);
      restored.open();
      // A writer that does not know the restored checkpoint tags its last results 1.
      restored.processElement(result(1, 0, file("last", 5)));
      restored.endInput();

      List<DeltaCommittable> out = committables(restored);
      assertThat(out).extracting(DeltaCommittable::checkpointId).containsExactly(13L);
      assertThat(out.get(0).files().numRecords()).isEqualTo(5);
    }
  }

  private DeltaSinkConfig config(Configuration options) {
    return SinkConfigs.of(dir.resolve("t").toUri().toString(), TYPE, List.of(), options);
  }

  private static OneInputStreamOperatorTestHarness<
          CommittableMessage<DeltaWriteResult>, CommittableMessage<DeltaCommittable>>
      harness(DeltaSinkConfig config) throws Exception {
    var harness =
        new OneInputStreamOperatorTestHarness<
            CommittableMessage<DeltaWriteResult>, CommittableMessage<DeltaCommittable>>(
            new DeltaWriteResultAggregator(config));
    // Output goes through the committable serializer the sink declares, as in a job.
    harness.setup(
        CommittableMessageTypeInfo.of(DeltaCommittableSerializer::new)
            .createSerializer(new SerializerConfigImpl()));
    return harness;
  }

  private static StreamRecord<CommittableMessage<DeltaWriteResult>> result(
      long checkpoint, int subtask, DataFile... files) {
    return new StreamRecord<>(
        new CommittableWithLineage<>(
            new DeltaWriteResult(DataFiles.of(List.of(files))), checkpoint, subtask));
  }

  private static DataFile file(String name, long rows) {
    return new DataFile(
        name + ".parquet", 100 * rows, rows, Map.of(), "{\"numRecords\":" + rows + "}");
  }

  private static List<DeltaCommittable> committables(
      OneInputStreamOperatorTestHarness<?, CommittableMessage<DeltaCommittable>> harness) {
    return harness.extractOutputValues().stream()
        .filter(CommittableWithLineage.class::isInstance)
        .map(DeltaWriteResultAggregatorTest::committable)
        .toList();
  }

  private static DeltaCommittable committable(CommittableMessage<DeltaCommittable> message) {
    return ((CommittableWithLineage<DeltaCommittable>) message).getCommittable();
  }
}
