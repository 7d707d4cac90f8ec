/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DV files our writer writes, read by Delta Kernel's reader and by ours; and their corruption. */
class DeletionVectorFileTest {

  private static final long TWO_32 = 1L << 32;

  private final Configuration conf = HadoopConfigurations.of(Map.of());

  @TempDir Path dir;

  @Test
  void oneRow() throws IOException {
    assertRoundTrip(RowPositionsTest.of(0));
    assertRoundTrip(RowPositionsTest.of(41));
  }

  @Test
  void tenRows() throws IOException {
    assertRoundTrip(RowPositionsTest.of(0, 1, 2, 3, 5, 8, 13, 21, 34, 55));
  }

  @Test
  void aMillionDenseRows() throws IOException {
    RowPositions positions = new RowPositions();
    for (long p = 0; p < 1_000_000; p++) {
      positions.add(p);
    }
    DeletionVectorDescriptor dv = assertRoundTrip(positions);

    // Ranges are written as run containers: a few bytes per 65536 rows.
    assertThat(dv.sizeInBytes()).isLessThan(1_000);
  }

  @Test
  void aMillionSparseRows() throws IOException {
    RowPositions positions = new RowPositions();
    Random random = new Random(7);
    while (positions.cardinality() < 1_000_000) {
      positions.add(random.nextLong(100_000_000L));
    }
    assertRoundTrip(positions);
  }

  @Test
  void positionsAboveTwoToThe32InBucketsWithGaps() throws IOException {
    // Kernel holds one bitmap per key up to the largest, so its reader is fed keys up to 1000;
    // RowPositionsTest covers the largest position through our own reader.
    RowPositions positions =
        RowPositionsTest.of(
            3, TWO_32 - 1, TWO_32, TWO_32 + 65_536, 7 * TWO_32 + 12, 1000 * TWO_32 + 0xFFFF_FFFFL);
    for (long p = 5 * TWO_32; p < 5 * TWO_32 + 100_000; p += 3) {
      positions.add(p);
    }
    assertRoundTrip(positions);
    // Nothing in the lowest bucket at all.
    assertRoundTrip(RowPositionsTest.of(2 * TWO_32 + 1, 9 * TWO_32));
  }

  @Test
  void manyDvsInOneFileAtTheirOffsets() throws IOException {
    List<RowPositions> sets = new ArrayList<>();
    Random random = new Random(11);
    for (int i = 0; i < 20; i++) {
      RowPositions positions = new RowPositions();
      int rows = 1 + random.nextInt(5_000);
      for (int r = 0; r < rows; r++) {
        positions.add(random.nextLong(i % 4 == 0 ? 3 * TWO_32 : 1_000_000));
      }
      sets.add(positions);
    }
    String root = dir.toUri().toString();
    List<DeletionVectorDescriptor> dvs = new ArrayList<>();
    String relativePath;
    long length;
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, root)) {
      for (RowPositions positions : sets) {
        dvs.add(writer.write(positions));
      }
      relativePath = writer.relativePath();
      length = writer.length();
    }

    assertThat(dvs)
        .extracting(DeletionVectorDescriptor::pathOrInlineDv)
        .containsOnly(dvs.get(0).pathOrInlineDv());
    assertThat(dvs.get(0).offset()).isEqualTo(1);
    long expectedOffset = 1;
    for (int i = 0; i < sets.size(); i++) {
      DeletionVectorDescriptor dv = dvs.get(i);
      assertThat(dv.offset()).isEqualTo((int) expectedOffset);
      expectedOffset += 4 + dv.sizeInBytes() + 4;
      assertThat(dv.absolutePath(root)).endsWith("/" + relativePath);
      assertKernelReads(root, dv, sets.get(i));
      assertThat(DeletionVectorReader.read(conf, root, dv)).isEqualTo(sets.get(i));
    }
    assertThat(Files.size(dir.resolve(relativePath))).isEqualTo(expectedOffset).isEqualTo(length);
    assertThat(Files.readAllBytes(dir.resolve(relativePath))[0]).isEqualTo((byte) 1);
  }

  @Test
  void inlineDvs() throws IOException {
    for (RowPositions positions :
        List.of(
            RowPositionsTest.of(0),
            RowPositionsTest.of(3, 4, 7, 11, 18, 29),
            RowPositionsTest.of(1, TWO_32 * 2 + 5))) {
      DeletionVectorDescriptor dv =
          DeletionVectorDescriptor.inline(positions.toBitmapData(), positions.cardinality());

      assertKernelReads("/no/such/table", dv, positions);
      assertThat(DeletionVectorReader.read(conf, "/no/such/table", dv)).isEqualTo(positions);
    }
  }

  @Test
  void aDvOfNoRowsIsReadFromNowhereAndNeverWritten() throws IOException {
    DeletionVectorDescriptor missing =
        DeletionVectorDescriptor.onDisk("", UUID.randomUUID(), 1, 0, 0);

    assertThat(DeletionVectorReader.read(conf, dir.toString(), missing).isEmpty()).isTrue();
    assertThat(KernelDeletionVectors.load(conf, dir.toString(), missing).toArray()).isEmpty();
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString())) {
      assertThatThrownBy(() -> writer.write(new RowPositions()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("empty deletion vector");
    }
    try (var files = Files.list(dir)) {
      assertThat(files).as("a writer that wrote nothing leaves no file").isEmpty();
    }
  }

  @Test
  void theWriterNeverOverwritesAndRefusesUseAfterClose() throws IOException {
    DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString());
    Files.write(dir.resolve(writer.relativePath()), new byte[] {9});

    assertThatThrownBy(() -> writer.write(RowPositionsTest.of(1))).isInstanceOf(IOException.class);
    assertThat(Files.readAllBytes(dir.resolve(writer.relativePath()))).containsExactly(9);
    assertThatThrownBy(() -> writer.write(RowPositionsTest.of(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed an earlier write");
    writer.close();

    DeletionVectorWriter closed = DeletionVectorWriter.create(conf, dir.toString());
    closed.close();
    assertThatThrownBy(() -> closed.write(RowPositionsTest.of(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
  }

  @Test
  void aDvThatWouldTakeTheFilePastItsLimitIsRefusedBeforeAnyByteIsWritten() throws IOException {
    RowPositions small = RowPositionsTest.of(1);
    int record = 4 + small.toBitmapData().length + 4;
    DeletionVectorDescriptor first;
    DeletionVectorDescriptor third;
    String relativePath;
    try (DeletionVectorWriter writer =
        DeletionVectorWriter.create(conf, dir.toString(), 1 + 2L * record)) {
      first = writer.write(small);
      writer.write(RowPositionsTest.of(2));
      assertThatThrownBy(() -> writer.write(RowPositionsTest.of(3)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(writer.relativePath())
          .hasMessageContaining("stays under 2 GiB");
      assertThat(writer.length()).isEqualTo(1 + 2L * record);
      relativePath = writer.relativePath();
    }
    try (DeletionVectorWriter next = DeletionVectorWriter.create(conf, dir.toString())) {
      third = next.write(RowPositionsTest.of(3));
    }

    assertThat(Files.size(dir.resolve(relativePath))).isEqualTo(1 + 2L * record);
    assertThat(DeletionVectorReader.read(conf, dir.toString(), first)).isEqualTo(small);
    assertThat(DeletionVectorReader.read(conf, dir.toString(), third))
        .isEqualTo(RowPositionsTest.of(3));
  }

  @Test
  void readsARecordWrittenByHand() throws IOException {
    // The bytes of a file built from the protocol alone: version, then at offset 1 the size
    // (big-endian), the RoaringBitmapArray bytes (little-endian) and their CRC-32 (big-endian).
    byte[] bitmap =
        RowPositionsTest.le(
            RowPositionsTest.ints(1681511377),
            RowPositionsTest.longs(1),
            RowPositionsTest.ints(1),
            RowPositionsTest.ints(12346, 1),
            RowPositionsTest.shorts(0, 1),
            RowPositionsTest.ints(16),
            RowPositionsTest.shorts(2, 65535));
    UUID id = UUID.randomUUID();
    writeFile(id, bitmap, crc(bitmap));
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.onDisk("", id, 1, bitmap.length, 2);
    RowPositions expected = RowPositionsTest.of(TWO_32 + 2, TWO_32 + 65535);

    assertThat(DeletionVectorReader.read(conf, dir.toString(), dv)).isEqualTo(expected);
    assertKernelReads(dir.toString(), dv, expected);
  }

  @Test
  void aWrongChecksumIsNamed() throws IOException {
    byte[] bitmap = RowPositionsTest.of(1, 2, 3).toBitmapData();
    UUID id = UUID.randomUUID();
    Path file = writeFile(id, bitmap, crc(bitmap) ^ 1);
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.onDisk("", id, 1, bitmap.length, 3);

    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), dv))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("at offset 1 of")
        .hasMessageContaining(file.getFileName().toString())
        .hasMessageContaining("CRC-32");
    assertThatThrownBy(() -> KernelDeletionVectors.load(conf, dir.toString(), dv))
        .hasMessage("DV checksum mismatch");
  }

  @Test
  void aSizeOtherThanTheDescriptorsIsNamed() throws IOException {
    RowPositions positions = RowPositionsTest.of(1, 2, 3);
    DeletionVectorDescriptor written;
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString())) {
      written = writer.write(positions);
    }
    DeletionVectorDescriptor wrongSize =
        DeletionVectorDescriptor.onDisk(
            "",
            Z85.decodeUuid(written.pathOrInlineDv()),
            1,
            written.sizeInBytes() - 1,
            written.cardinality());

    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), wrongSize))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has " + written.sizeInBytes() + " bytes")
        .hasMessageContaining("descriptor says " + (written.sizeInBytes() - 1));
    assertThatThrownBy(() -> KernelDeletionVectors.load(conf, dir.toString(), wrongSize))
        .hasMessage("DV size mismatch");
  }

  @Test
  void anotherCardinalityThanTheDescriptorsIsNamed() throws IOException {
    DeletionVectorDescriptor written;
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString())) {
      written = writer.write(RowPositionsTest.of(1, 2, 3));
    }
    DeletionVectorDescriptor wrong =
        new DeletionVectorDescriptor(
            "u", written.pathOrInlineDv(), written.offset(), written.sizeInBytes(), 4);

    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), wrong))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("holds 3 rows, but its descriptor says 4");
  }

  @Test
  void aBadMagicNumberOnDiskOrInlineIsNamed() throws IOException {
    byte[] bitmap = RowPositionsTest.of(1, 2, 3).toBitmapData();
    bitmap[3] = 0;
    UUID id = UUID.randomUUID();
    writeFile(id, bitmap, crc(bitmap));
    DeletionVectorDescriptor onDisk = DeletionVectorDescriptor.onDisk("", id, 1, bitmap.length, 3);
    DeletionVectorDescriptor inline = DeletionVectorDescriptor.inline(bitmap, 3);

    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), onDisk))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("deletion_vector_" + id)
        .hasMessageContaining("magic number");
    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), inline))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("The inline deletion vector is unreadable")
        .hasMessageContaining("magic number");
    assertThatThrownBy(() -> KernelDeletionVectors.load(conf, dir.toString(), onDisk))
        .hasStackTraceContaining("Unexpected RoaringBitmapArray magic number");
  }

  @Test
  void aFileCutShortOrMissingIsAnIoError() throws IOException {
    RowPositions positions = RowPositionsTest.of(1, 2, 3);
    DeletionVectorDescriptor dv;
    String relativePath;
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString())) {
      dv = writer.write(positions);
      relativePath = writer.relativePath();
    }
    try (RandomAccessFile file = new RandomAccessFile(dir.resolve(relativePath).toFile(), "rw")) {
      file.setLength(file.length() - 2);
    }

    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), dv))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cut short");
    Files.delete(dir.resolve(relativePath));
    assertThatThrownBy(() -> DeletionVectorReader.read(conf, dir.toString(), dv))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(relativePath);
  }

  private DeletionVectorDescriptor assertRoundTrip(RowPositions positions) throws IOException {
    DeletionVectorDescriptor dv = null;
    for (String root : new String[] {dir.toUri().toString(), dir.toString()}) {
      try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, root)) {
        dv = writer.write(positions);
      }
      assertThat(dv.storageType()).isEqualTo("u");
      assertThat(dv.offset()).isEqualTo(1);
      assertThat(dv.cardinality()).isEqualTo(positions.cardinality());
      assertThat(dv.sizeInBytes()).isEqualTo(positions.toBitmapData().length);
      assertKernelReads(root, dv, positions);
      assertThat(DeletionVectorReader.read(conf, root, dv)).isEqualTo(positions);
    }
    return dv;
  }

  /** Kernel's reader finds every position, no other, and as many as the descriptor says. */
  private void assertKernelReads(String root, DeletionVectorDescriptor dv, RowPositions expected) {
    RoaringBitmapArray kernel = KernelDeletionVectors.load(conf, root, dv);
    long[] all = kernel.toArray();
    assertThat(all).hasSize((int) expected.cardinality());
    assertThat((long) all.length).isEqualTo(dv.cardinality());
    var iterator = expected.iterator();
    for (long value : all) {
      assertThat(value).isEqualTo(iterator.nextLong());
      assertThat(kernel.contains(value)).isTrue();
    }
    long last = expected.last();
    for (long absent : new long[] {last + 1, last + 65_536, last + TWO_32}) {
      if (absent <= RowPositions.MAX_POSITION) {
        assertThat(kernel.contains(absent)).as("%d", absent).isFalse();
      }
    }
    for (long candidate = 0; candidate < 1_000; candidate++) {
      assertThat(kernel.contains(candidate)).isEqualTo(expected.contains(candidate));
    }
  }

  private Path writeFile(UUID id, byte[] bitmap, int checksum) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(1);
    out.writeInt(bitmap.length);
    out.write(bitmap);
    out.writeInt(checksum);
    Path file = dir.resolve("deletion_vector_" + id + ".bin");
    Files.write(file, bytes.toByteArray());
    return file;
  }

  private static int crc(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    return (int) crc.getValue();
  }
}
