/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Files kept deflated decode to exactly what went in, as often as asked, in order. */
class DataFilesTest {

  @Test
  void decodesEveryFieldInOrderOnEveryIteration() {
    List<DataFile> files = files(1_000);

    DataFiles held = DataFiles.of(files);

    assertThat(held.size()).isEqualTo(1_000);
    assertThat(held.numRecords()).isEqualTo(files.stream().mapToLong(DataFile::numRecords).sum());
    assertThat(held.sizeBytes()).isEqualTo(files.stream().mapToLong(DataFile::sizeBytes).sum());
    assertThat(held.toList()).containsExactlyElementsOf(files);
    assertThat(held.toList()).containsExactlyElementsOf(files);
  }

  @Test
  void holdsFilesInAFractionOfTheirObjectSize() throws IOException {
    List<DataFile> files = files(10_000);
    long encoded = files.stream().mapToLong(f -> f.statsJson().length() + f.path().length()).sum();

    byte[] serialized = serialize(DataFiles.of(files));

    assertThat(serialized.length).isLessThan((int) (encoded / 5));
  }

  @Test
  void concatenatesWithoutDecodingAndSerializesRoundTrip() throws IOException {
    List<DataFile> first = files(3);
    List<DataFile> second = files(2);
    DataFiles both =
        DataFiles.concat(List.of(DataFiles.of(first), DataFiles.empty(), DataFiles.of(second)));

    DataFiles read = DataFiles.readFrom(in(serialize(both)));

    List<DataFile> expected = new ArrayList<>(first);
    expected.addAll(second);
    assertThat(read.toList()).containsExactlyElementsOf(expected);
    assertThat(read).isEqualTo(both);
    assertThat(read.size()).isEqualTo(5);
    assertThat(DataFiles.readFrom(in(serialize(DataFiles.empty())))).isEqualTo(DataFiles.empty());
  }

  @Test
  void corruptBytesFailWhenReadNotWhenCommitted() throws IOException {
    byte[] bytes = serialize(DataFiles.of(files(50)));
    bytes[bytes.length - 10] ^= 0x33;

    assertThatThrownBy(() -> DataFiles.readFrom(in(bytes)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Corrupt sink state");
  }

  @Test
  void wrongCountsInAChunkHeaderFailWhenRead() throws IOException {
    byte[] bytes = serialize(DataFiles.of(files(50)));
    // The chunk count, then the chunk's file count (int), row count and byte count (longs).
    for (int[] change : new int[][] {{7, 49}, {7, 51}, {15, 1}, {23, 1}}) {
      byte[] garbled = bytes.clone();
      garbled[change[0]] = (byte) (change[1] == 1 ? garbled[change[0]] + 1 : change[1]);
      assertThatThrownBy(() -> DataFiles.readFrom(in(garbled)))
          .as("byte %d", change[0])
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Corrupt sink state");
    }
  }

  @Test
  void aBuilderStartsANewChunkAtItsLimitAndTheChunksReadBackInOrder() throws IOException {
    List<DataFile> files = files(300);
    DataFiles.Builder builder = DataFiles.builder(4_096);
    files.forEach(builder::add);
    DataFiles built = builder.build();

    byte[] bytes = serialize(built);
    int chunks = new DataInputStream(new ByteArrayInputStream(bytes)).readInt();

    assertThat(chunks).isGreaterThan(5);
    assertThat(DataFiles.readFrom(in(bytes)).toList()).containsExactlyElementsOf(files);
    assertThat(built.size()).isEqualTo(300);
  }

  @Test
  void anIteratorClosedEarlyStopsAndAFreshOneStartsOver() {
    List<DataFile> files = files(20);
    DataFiles held = DataFiles.of(files);
    try (DataFiles.FileIterator it = held.iterator()) {
      assertThat(it.next()).isEqualTo(files.get(0));
      it.close();
      assertThat(it.hasNext()).isFalse();
    }
    assertThat(held.iterator().next()).isEqualTo(files.get(0));
  }

  @Test
  void builderTakesNoFilesAfterBuild() {
    DataFiles.Builder builder = DataFiles.builder();
    builder.add(files(1).get(0));
    assertThat(builder.build().size()).isEqualTo(1);
    assertThatThrownBy(() -> builder.add(files(1).get(0)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(DataFiles.builder().build()).isSameAs(DataFiles.empty());
  }

  private static List<DataFile> files(int count) {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> partition = new HashMap<>();
      partition.put("country", i % 7 == 0 ? null : "c" + i);
      files.add(
          new DataFile(
              "country=c" + i + "/part-00000-0f1e-" + i + ".snappy.parquet",
              40_000 + i,
              i + 1,
              partition,
              "{\"numRecords\":"
                  + (i + 1)
                  + ",\"minValues\":{\"id\":"
                  + i
                  + ",\"name\":\"ü-"
                  + i
                  + "\"},\"maxValues\":{\"id\":"
                  + (i + 100)
                  + "},\"nullCount\":{\"id\":0,\"name\":0}}"));
    }
    return files;
  }

  private static byte[] serialize(DataFiles files) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      files.writeTo(out);
    }
    return bytes.toByteArray();
  }

  private static DataInputStream in(byte[] bytes) {
    return new DataInputStream(new ByteArrayInputStream(bytes));
  }
}
