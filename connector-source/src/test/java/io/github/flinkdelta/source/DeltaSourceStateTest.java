/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.read.ReadFile;
import io.github.flinkdelta.core.read.WatermarkColumn;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The source's checkpointed state survives its serializers unchanged. */
class DeltaSourceStateTest {

  private static final DeletionVectorDescriptor ON_DISK =
      DeletionVectorDescriptor.onDisk("ab", UUID.randomUUID(), 1, 34, 5);

  @Test
  void aSplitWithItsVectorsPartitionValuesAndPositionRoundTrips() throws IOException {
    Map<String, String> partitions = new HashMap<>();
    partitions.put("col-1", "2026-12-04");
    partitions.put("col-2", null);
    ReadFile file =
        new ReadFile(
            "s3a://bucket/t/col-1=2026-12-04/part-0.parquet",
            1234,
            99,
            partitions,
            ON_DISK,
            7,
            500);
    DeltaSplit split = DeltaSplit.newlyDeleted(file, null).at(42);
    DeltaSplitSerializer serializer = new DeltaSplitSerializer();

    DeltaSplit read = serializer.deserialize(serializer.getVersion(), serializer.serialize(split));

    assertThat(read).isEqualTo(split);
    assertThat(read.splitId()).isEqualTo(split.splitId());
    assertThat(read.file().partitionValues()).containsEntry("col-2", null);
    assertThat(read.file().minTimestamp()).isEqualTo(500);
  }

  @Test
  void aSplitOfVersionOneHoldsARowCountWhereTheTimestampIsAndReadsWithNone() throws IOException {
    ReadFile file = new ReadFile("file:/t/a.parquet", 10, 1, Map.of(), ON_DISK, 3, 1_000);
    DeltaSplitSerializer serializer = new DeltaSplitSerializer();

    DeltaSplit read = serializer.deserialize(1, serializer.serialize(DeltaSplit.of(file).at(5)));

    assertThat(read.file().minTimestamp()).isEqualTo(WatermarkColumn.UNKNOWN);
    assertThat(read.file().path()).isEqualTo(file.path());
    assertThat(read.position()).isEqualTo(5);
  }

  @Test
  void splitsByTimestampGoOldestFirstHoweverTheyArriveAndAreCheckpointedInThatOrder() {
    PendingSplits pending =
        PendingSplits.byTimestamp(List.of(DeltaSplit.of(at("c", 30)), DeltaSplit.of(at("a", 10))));
    pending.addAll(List.of(DeltaSplit.of(at("d", 40)), DeltaSplit.of(at("b", 20))));
    pending.addBack(List.of(DeltaSplit.of(at("e", 5))));

    assertThat(pending.inOrder())
        .extracting(split -> split.file().path())
        .containsExactly("e", "a", "b", "c", "d");
    List<String> polled = new java.util.ArrayList<>();
    for (DeltaSplit split = pending.poll(); split != null; split = pending.poll()) {
      polled.add(split.file().path());
    }
    assertThat(polled).containsExactly("e", "a", "b", "c", "d");
  }

  @Test
  void splitsInPlanOrderKeepItAndSplitsGivenBackGoFirst() {
    PendingSplits pending = PendingSplits.inPlanOrder(List.of(DeltaSplit.of(at("c", 30))));
    pending.addAll(List.of(DeltaSplit.of(at("a", 10))));
    pending.addBack(List.of(DeltaSplit.of(at("x", 50)), DeltaSplit.of(at("y", 60))));

    assertThat(pending.inOrder())
        .extracting(split -> split.file().path())
        .containsExactly("x", "y", "c", "a");
  }

  private static ReadFile at(String path, long minTimestamp) {
    return new ReadFile(path, 10, 1, Map.of(), null, 3, minTimestamp);
  }

  @Test
  void theEnumeratorsStateRoundTripsAndAnUnknownVersionIsRefused() throws IOException {
    ReadFile file = new ReadFile("file:/t/a.parquet", 10, 1, Map.of(), null, 3, -1);
    DeltaEnumeratorState state =
        new DeltaEnumeratorState(
            4,
            List.of(
                DeltaSplit.of(file),
                DeltaSplit.removed(file),
                DeltaSplit.newlyDeleted(file, ON_DISK)));
    DeltaEnumeratorStateSerializer serializer = new DeltaEnumeratorStateSerializer();
    byte[] bytes = serializer.serialize(state);

    assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(state);
    assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion() + 1, bytes))
        .hasMessageContaining("Restore with the connector version that wrote it");
  }

  @Test
  void splitsOfOneFileInOneVersionHaveDistinctIdsByWhatTheyRead() {
    ReadFile file = new ReadFile("file:/t/a.parquet", 10, 1, Map.of(), null, 3, -1);

    assertThat(
            List.of(
                DeltaSplit.of(file).splitId(),
                DeltaSplit.removed(file).splitId(),
                DeltaSplit.newlyDeleted(file, null).splitId()))
        .doesNotHaveDuplicates();
  }
}
