/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.DeltaWriteResultSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The state serializers read the bytes of their version (golden files under {@code
 * src/test/resources/state}), round-trip it, and refuse any other version. Nothing has been
 * released, so only the current version is read; a released version's golden file stays here for as
 * long as it is read.
 */
class StateSerializersTest {

  static final DeltaCommittable COMMITTABLE =
      new DeltaCommittable(
          "3f2a-app",
          42,
          DataFiles.of(
              List.of(
                  new DataFile(
                      "bucket=1/part-00000-a.snappy.parquet",
                      1234,
                      10,
                      partition("bucket", "1"),
                      "{\"numRecords\":10,\"minValues\":{\"id\":1}}"),
                  new DataFile(
                      "bucket=__HIVE_DEFAULT_PARTITION__/part-00001-b.snappy.parquet",
                      99,
                      1,
                      partition("bucket", null),
                      "{\"numRecords\":1,\"minValues\":{\"payload\":\""
                          + "ä".repeat(40_000)
                          + "\"}}"))),
          FileDeletes.empty(),
          // State before version 7 did not record when it was made.
          0);

  @Test
  void version3GoldenBytesStillDecodeAsStateWithoutDeletes() throws IOException {
    DeltaCommittableSerializer committables = new DeltaCommittableSerializer();
    DeltaWriteResultSerializer results = new DeltaWriteResultSerializer();
    DeltaWriteResult result = new DeltaWriteResult(COMMITTABLE.files());
    assertThat(committables.getVersion()).isEqualTo(7);
    assertThat(results.getVersion()).isEqualTo(7);

    assertThat(committables.deserialize(3, golden("delta-committable-v3.bin")))
        .isEqualTo(COMMITTABLE);
    assertThat(results.deserialize(3, golden("delta-write-result-v3.bin"))).isEqualTo(result);
    assertThat(committables.deserialize(4, committables.serialize(COMMITTABLE)))
        .isEqualTo(COMMITTABLE);
    assertThat(results.deserialize(4, results.serialize(result))).isEqualTo(result);
  }

  @Test
  void version5And6StateEndBeforeTheIndexVersionAndStillDecode() throws IOException {
    DeltaCommittableSerializer committables = new DeltaCommittableSerializer();
    FileDeletes deletes = new FileDeletes();
    deletes.add(7, 3);
    deletes.addDeletedKey("k");
    DeltaCommittable withDeletes =
        new DeltaCommittable(COMMITTABLE.appId(), 9, COMMITTABLE.files(), deletes, 0);
    byte[] current = committables.serialize(withDeletes);
    // Version 7 ends with the index version (8 bytes), the count of rewrites (4 bytes) and the
    // moment the committable was made (8 bytes).
    byte[] version5 = java.util.Arrays.copyOf(current, current.length - 20);
    assertThat(committables.deserialize(5, version5)).isEqualTo(withDeletes);
    // Version 6 ended with two counts of rewritten files.
    byte[] version6 = java.util.Arrays.copyOf(version5, version5.length + 8);
    DeltaCommittable read6 = committables.deserialize(6, version6);
    assertThat(read6).isEqualTo(withDeletes);
    assertThat(read6.deletes().indexVersion()).isEqualTo(FileDeletes.UNKNOWN_VERSION);

    FileDeletes rewritten = new FileDeletes();
    rewritten.setIndexVersion(41);
    rewritten.addRewrite(
        new RewriteLayout(
            3,
            List.of(
                new RewriteLayout.Input(1, null, List.of(new RewriteLayout.Run(3, 0, 5))),
                new RewriteLayout.Input(2, null, List.of()))));
    DeltaCommittable withRewrite =
        new DeltaCommittable(
            COMMITTABLE.appId(), 10, COMMITTABLE.files(), rewritten, 1_796_500_000_000L);
    DeltaCommittable read =
        committables.deserialize(committables.getVersion(), committables.serialize(withRewrite));
    assertThat(read).isEqualTo(withRewrite);
    assertThat(read.deletes().rewrites().get(0).inputIds()).containsExactly(1L, 2L);
    assertThat(read.deletes().indexVersion()).isEqualTo(41);
    assertThat(read.isEmpty()).isFalse();
  }

  @Test
  void deletesOfUpsertsRoundTrip() throws IOException {
    FileDeletes deletes = new FileDeletes();
    deletes.add(17L, 3);
    deletes.add(17L, 1L << 40);
    deletes.add(-5L, 0);
    DeltaCommittable committable = new DeltaCommittable("app", 11, COMMITTABLE.files(), deletes);
    DeltaCommittableSerializer committables = new DeltaCommittableSerializer();
    DeltaWriteResultSerializer results = new DeltaWriteResultSerializer();

    DeltaCommittable read =
        committables.deserialize(committables.getVersion(), committables.serialize(committable));
    DeltaWriteResult result =
        results.deserialize(
            results.getVersion(),
            results.serialize(new DeltaWriteResult(DataFiles.empty(), deletes)));

    assertThat(read).isEqualTo(committable);
    assertThat(read.deletes().count()).isEqualTo(3);
    assertThat(result.deletes()).isEqualTo(deletes);
    assertThat(result.files().isEmpty()).isTrue();
  }

  @Test
  void committableOfSeveralWritersRoundTripsWithoutDecoding() throws IOException {
    DataFiles second =
        DataFiles.of(
            List.of(
                new DataFile("part-00002-c.snappy.parquet", 7, 3, Map.of(), "{\"numRecords\":3}")));
    DeltaCommittable committable =
        new DeltaCommittable(
            "app", 9, DataFiles.concat(List.of(COMMITTABLE.files(), DataFiles.empty(), second)));
    DeltaCommittableSerializer serializer = new DeltaCommittableSerializer();

    DeltaCommittable read =
        serializer.deserialize(serializer.getVersion(), serializer.serialize(committable));

    assertThat(read).isEqualTo(committable);
    assertThat(read.files().size()).isEqualTo(3);
    assertThat(read.files().numRecords()).isEqualTo(14);
    assertThat(read.files().sizeBytes()).isEqualTo(1234 + 99 + 7);
    assertThat(read.files().toList().get(2).path()).isEqualTo("part-00002-c.snappy.parquet");
  }

  @Test
  void manyFilesWithSimilarStatisticsTakeFewBytesEach() throws IOException {
    List<DataFile> files = new java.util.ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      files.add(
          new DataFile(
              "country=p" + i + "/part-00000-9c1d7e0a-" + i + ".snappy.parquet",
              41_000 + i,
              100,
              partition("country", "p" + i),
              "{\"numRecords\":100,\"minValues\":{\"event_id\":"
                  + i * 100
                  + ",\"url\":\"https://shop.example.com/catalog/item/1\"},\"maxValues\":{\"event_id\":"
                  + (i * 100 + 99)
                  + ",\"url\":\"https://shop.example.com/catalog/item/9\"},\"nullCount\":{\"event_id\":0,\"url\":0}}"));
    }
    DeltaCommittable committable = new DeltaCommittable("app", 7, DataFiles.of(files));
    DeltaCommittableSerializer serializer = new DeltaCommittableSerializer();

    byte[] bytes = serializer.serialize(committable);

    assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(committable);
    assertThat(bytes.length / files.size()).isLessThan(80);
  }

  @Test
  void corruptDeflatedStateFailsClearly() throws IOException {
    byte[] bytes =
        new DeltaWriteResultSerializer().serialize(new DeltaWriteResult(COMMITTABLE.files()));
    bytes[bytes.length - 24] ^= 0x5A;
    assertThatThrownBy(
            () ->
                new DeltaWriteResultSerializer().deserialize(DataFileSerialization.VERSION, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Corrupt sink state");
  }

  @Test
  void garbledLengthsFailClearlyWithoutHugeAllocations() throws IOException {
    DeltaCommittableSerializer serializer = new DeltaCommittableSerializer();
    byte[] bytes = serializer.serialize(COMMITTABLE);
    // appId length, checkpoint id, chunk count, then the chunk's files, rows, bytes, encoded and
    // deflated lengths.
    int deflatedLength = 4 + "3f2a-app".length() + 8 + 4 + 4 + 8 + 8 + 4;
    for (int offset : new int[] {0, deflatedLength}) {
      byte[] garbled = bytes.clone();
      garbled[offset] = 0x7F;
      assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), garbled))
          .as("length at byte %d", offset)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Corrupt sink state");
    }
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length / 2);
    assertThatThrownBy(() -> serializer.deserialize(serializer.getVersion(), truncated))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Corrupt sink state");
  }

  @Test
  void otherVersionsAreRefusedWithWhatToDo() throws IOException {
    byte[] committable = new DeltaCommittableSerializer().serialize(COMMITTABLE);
    byte[] result =
        new DeltaWriteResultSerializer().serialize(new DeltaWriteResult(COMMITTABLE.files()));
    for (int version : new int[] {1, 2, 8, 9}) {
      assertThatThrownBy(() -> new DeltaCommittableSerializer().deserialize(version, committable))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Delta committable state version " + version)
          .hasMessageContaining("reads versions 3 to 7")
          .hasMessageContaining("Restore with the connector version that wrote it");
      assertThatThrownBy(() -> new DeltaWriteResultSerializer().deserialize(version, result))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Delta write result state version " + version)
          .hasMessageContaining("Restore with the connector version that wrote it");
    }
  }

  private static Map<String, String> partition(String key, String value) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(key, value);
    return values;
  }

  private static byte[] golden(String name) throws IOException {
    try (InputStream in = StateSerializersTest.class.getResourceAsStream("/state/" + name)) {
      if (in == null) {
        throw new IOException("missing golden file " + name);
      }
      return in.readAllBytes();
    }
  }
}
