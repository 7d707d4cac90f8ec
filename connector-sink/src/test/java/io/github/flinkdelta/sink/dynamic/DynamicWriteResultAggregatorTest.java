/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The dynamic sink's aggregator in Flink's operator test harness: one committable per table and
 * checkpoint, a table's truncation on its committable, and the writers' last results of a restored
 * job committed after the restored checkpoint, never under a checkpoint the tables may hold
 * already; with a commit interval, a table's results of the checkpoints in between waiting, in
 * state, for one committable of the first checkpoint the interval allows.
 */
class DynamicWriteResultAggregatorTest {

  private static final DynamicSinkConfig CONFIG =
      new DynamicSinkConfig(
          new DynamicTableNames.UnderRoot("file:///tmp/unused"),
          Map.of(),
          Map.of(),
          Map.of(),
          null,
          "app");

  @Test
  void theResultsOfACheckpointBecomeOneCommittablePerTable() throws Exception {
    try (var harness = harness()) {
      harness.open();
      harness.processElement(result("a", 1, 0, file("a1", 3)));
      harness.processElement(result("b", 1, 1, file("b1", 2)));
      harness.processElement(result("a", 1, 1, file("a2", 4)));
      harness.prepareSnapshotPreBarrier(1);

      List<DynamicCommittable> out = committables(harness);
      assertThat(out).extracting(DynamicCommittable::table).containsExactly("a", "b");
      assertThat(out).allMatch(c -> c.committable().checkpointId() == 1);
      assertThat(out.get(0).committable().files().numRecords()).isEqualTo(7);
    }
  }

  @Test
  void aTruncationRidesOnItsTablesCommittableOfTheCheckpointAndSurvivesItsState() throws Exception {
    try (var harness = harness()) {
      harness.open();
      harness.processElement(result("a", 1, 0, file("a1", 3)));
      harness.processElement(
          new StreamRecord<>(
              new CommittableWithLineage<>(
                  DynamicWriteResult.of(HeldRecords.TableEvent.truncation("a")), 1, 0)));
      harness.processElement(result("b", 1, 1, file("b1", 2)));
      harness.prepareSnapshotPreBarrier(1);

      List<DynamicCommittable> out = committables(harness);
      assertThat(out)
          .extracting(DynamicCommittable::table, DynamicCommittable::truncates)
          .containsExactly(tuple("a", true), tuple("b", false));
      assertThat(out.get(0).committable().files().numRecords()).isEqualTo(3);

      DynamicSerializers.Committables serializer = new DynamicSerializers.Committables();
      DynamicCommittable read =
          serializer.deserialize(serializer.getVersion(), serializer.serialize(out.get(0)));
      assertThat(read.table()).isEqualTo("a");
      assertThat(read.truncates()).isTrue();
      assertThat(read.committable().files().numRecords()).isEqualTo(3);
      assertThat(read.dropsTableId()).isNull();
      // State written before drops existed ends after the truncation flag; state written before
      // truncations existed ends where the flag would start.
      byte[] bytes = serializer.serialize(out.get(0));
      byte[] beforeDrops = Arrays.copyOf(bytes, bytes.length - 1);
      assertThat(serializer.deserialize(serializer.getVersion(), beforeDrops).truncates()).isTrue();
      byte[] older = Arrays.copyOf(bytes, bytes.length - 2);
      assertThat(serializer.deserialize(serializer.getVersion(), older).truncates()).isFalse();
    }
  }

  @Test
  void aDropRidesOnItsTablesCommittableWithTheIdOfTheTableItDrops() throws Exception {
    try (var harness = harness()) {
      harness.open();
      harness.processElement(result("a", 1, 1, file("a1", 3)));
      DynamicSerializers.WriteResults results = new DynamicSerializers.WriteResults();
      DynamicWriteResult drop = DynamicWriteResult.of(HeldRecords.TableEvent.drop("a", "id-of-a"));
      assertThat(results.deserialize(results.getVersion(), results.serialize(drop)))
          .isEqualTo(drop);
      harness.processElement(
          new StreamRecord<>(
              new CommittableWithLineage<>(
                  DynamicWriteResult.of(HeldRecords.TableEvent.drop("a", "id-of-a")), 1, 0)));
      harness.prepareSnapshotPreBarrier(1);

      DynamicCommittable out = committables(harness).get(0);
      assertThat(out.dropsTableId()).isEqualTo("id-of-a");
      assertThat(out.truncates()).isFalse();
      assertThat(out.committable().files().numRecords()).isEqualTo(3);
      DynamicSerializers.Committables serializer = new DynamicSerializers.Committables();
      DynamicCommittable read =
          serializer.deserialize(serializer.getVersion(), serializer.serialize(out));
      assertThat(read.dropsTableId()).isEqualTo("id-of-a");
      assertThat(read.truncates()).isFalse();
    }
  }

  @Test
  void lastResultsTaggedWithACheckpointBeforeTheRestoredOneAreCommittedAfterIt() throws Exception {
    OperatorSubtaskState state;
    try (var first = harness()) {
      first.open();
      state = first.snapshot(12, 12);
    }
    try (var restored = harness()) {
      restored.initializeState(state);
      restored.open();
      // A writer that does not know the restored checkpoint tags its last results 1.
      restored.processElement(result("a", 1, 0, file("last", 5)));
      restored.endInput();

      List<DynamicCommittable> out = committables(restored);
      assertThat(out).hasSize(1);
      assertThat(out.get(0).committable().checkpointId()).isEqualTo(13);
      assertThat(out.get(0).committable().appId()).isEqualTo("app");
    }
  }

  /** A commit interval of 10 s for every table but {@code b}, which commits at every checkpoint. */
  private static final DynamicSinkConfig TEN_SECONDS =
      new DynamicSinkConfig(
          new DynamicTableNames.UnderRoot("file:///tmp/unused"),
          Map.of(DynamicSinkOptions.COMMIT_INTERVAL.key(), "10 s"),
          Map.of("b", Map.of(DynamicSinkOptions.COMMIT_INTERVAL.key(), "0 s")),
          Map.of(),
          null,
          "app");

  @Test
  void aTablesResultsWaitOutTheCommitIntervalAndBecomeOneCommittableOfTheCheckpointThatEndsIt()
      throws Exception {
    try (var harness = harness(TEN_SECONDS)) {
      harness.open();
      checkpoint(harness, 0, 1, result("a", 1, 0, file("a1", 1)));
      assertThat(committables(harness))
          .as("a table's first version in the run waits for nothing")
          .extracting(c -> c.table() + "@" + c.committable().checkpointId())
          .containsExactly("a@1");

      checkpoint(
          harness, 4_000, 2, result("a", 2, 0, file("a2", 2)), result("b", 2, 1, file("b2", 7)));
      checkpoint(
          harness, 9_999, 3, result("a", 3, 1, file("a3", 4)), result("b", 3, 0, file("b3", 7)));
      assertThat(committables(harness))
          .as("a waits for its interval; b, whose own interval is 0, does not")
          .extracting(c -> c.table() + "@" + c.committable().checkpointId())
          .containsExactly("a@1", "b@2", "b@3");

      checkpoint(harness, 10_000, 4, result("a", 4, 0, file("a4", 8)));
      List<DynamicCommittable> out = committables(harness);
      assertThat(out)
          .extracting(c -> c.table() + "@" + c.committable().checkpointId())
          .containsExactly("a@1", "b@2", "b@3", "a@4");
      assertThat(out.get(3).committable().files().toList())
          .extracting(DataFile::path)
          .containsExactly("a2.parquet", "a3.parquet", "a4.parquet");
    }
  }

  @Test
  void resultsWaitingInACheckpointAreCommittedAfterItsRestoreWithTheNextCheckpoint()
      throws Exception {
    OperatorSubtaskState state;
    try (var first = harness(TEN_SECONDS)) {
      first.open();
      checkpoint(first, 0, 1, result("a", 1, 0, file("a1", 1)));
      checkpoint(first, 1_000, 2, result("a", 2, 0, file("a2", 2)));
      state = first.snapshot(2, 1_000);
      assertThat(committables(first)).hasSize(1);
    }
    try (var restored = harness(TEN_SECONDS)) {
      restored.initializeState(state);
      restored.open();
      checkpoint(restored, 2_000, 3, result("a", 3, 0, file("a3", 4)));

      List<DynamicCommittable> out = committables(restored);
      assertThat(out).hasSize(1);
      assertThat(out.get(0).committable().checkpointId()).isEqualTo(3);
      assertThat(out.get(0).committable().files().toList())
          .extracting(DataFile::path)
          .containsExactly("a2.parquet", "a3.parquet");
    }
  }

  @Test
  void aTruncationAndTheEndOfTheInputCommitWaitingResultsAtOnce() throws Exception {
    try (var harness = harness(TEN_SECONDS)) {
      harness.open();
      checkpoint(harness, 0, 1, result("a", 1, 0, file("a1", 1)), result("c", 1, 0, file("c1", 1)));
      checkpoint(
          harness, 1_000, 2, result("a", 2, 0, file("a2", 2)), result("c", 2, 0, file("c2", 2)));
      harness.processElement(result("a", 3, 0, file("a3", 4)));
      harness.processElement(
          new StreamRecord<>(
              new CommittableWithLineage<>(
                  DynamicWriteResult.of(HeldRecords.TableEvent.truncation("a")), 3, 0)));
      harness.prepareSnapshotPreBarrier(3);
      List<DynamicCommittable> out = committables(harness);
      assertThat(out)
          .extracting(c -> c.table() + "@" + c.committable().checkpointId(), c -> c.truncates())
          .containsExactly(tuple("a@1", false), tuple("c@1", false), tuple("a@3", true));
      assertThat(out.get(2).committable().files().numRecords()).isEqualTo(6);

      harness.endInput();
      out = committables(harness);
      assertThat(out).hasSize(4);
      assertThat(out.get(3).table()).isEqualTo("c");
      assertThat(out.get(3).committable().checkpointId()).isEqualTo(4);
      assertThat(out.get(3).committable().files().numRecords()).isEqualTo(2);
    }
  }

  private static OneInputStreamOperatorTestHarness<
          CommittableMessage<DynamicWriteResult>, CommittableMessage<DynamicCommittable>>
      harness(DynamicSinkConfig config) throws Exception {
    var harness =
        new OneInputStreamOperatorTestHarness<
            CommittableMessage<DynamicWriteResult>, CommittableMessage<DynamicCommittable>>(
            new DynamicWriteResultAggregator(config));
    harness.setup(
        CommittableMessageTypeInfo.of(DynamicSerializers.Committables::new)
            .createSerializer(new SerializerConfigImpl()));
    return harness;
  }

  /**
   * Hands the aggregator checkpoint {@code id}'s {@code results} at processing time {@code millis},
   * then the checkpoint's barrier.
   */
  @SafeVarargs
  private static void checkpoint(
      OneInputStreamOperatorTestHarness<CommittableMessage<DynamicWriteResult>, ?> harness,
      long millis,
      long id,
      StreamRecord<CommittableMessage<DynamicWriteResult>>... results)
      throws Exception {
    harness.setProcessingTime(millis);
    for (StreamRecord<CommittableMessage<DynamicWriteResult>> result : results) {
      harness.processElement(result);
    }
    harness.prepareSnapshotPreBarrier(id);
  }

  private static OneInputStreamOperatorTestHarness<
          CommittableMessage<DynamicWriteResult>, CommittableMessage<DynamicCommittable>>
      harness() throws Exception {
    return harness(CONFIG);
  }

  private static StreamRecord<CommittableMessage<DynamicWriteResult>> result(
      String table, long checkpoint, int subtask, DataFile... files) {
    return new StreamRecord<>(
        new CommittableWithLineage<>(
            new DynamicWriteResult(table, DataFiles.of(List.of(files))), checkpoint, subtask));
  }

  private static DataFile file(String name, long rows) {
    return new DataFile(
        name + ".parquet", 100 * rows, rows, Map.of(), "{\"numRecords\":" + rows + "}");
  }

  @SuppressWarnings("unchecked")
  private static List<DynamicCommittable> committables(
      OneInputStreamOperatorTestHarness<?, CommittableMessage<DynamicCommittable>> harness) {
    return harness.extractOutputValues().stream()
        .filter(CommittableWithLineage.class::isInstance)
        .map(m -> ((CommittableWithLineage<DynamicCommittable>) m).getCommittable())
        .toList();
  }
}
