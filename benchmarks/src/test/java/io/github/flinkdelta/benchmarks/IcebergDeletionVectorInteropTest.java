/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.DeletionVectorWriter;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.zip.CRC32;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our deletion-vector codec against a second implementation: Iceberg's position delete index, whose
 * {@code deletion-vector-v1} blob is, for compatibility with Delta, exactly one record of a Delta
 * DV file (the bitmap's size, big-endian; the magic number and portable 64-bit bitmap; its CRC-32,
 * big-endian). It lives here, where Iceberg's Flink runtime already is, rather than in
 * connector-core: iceberg-core asks for RoaringBitmap 1.x, which connector-core pins to Kernel's
 * 0.9.25. (The runtime jar bundles its own RoaringBitmap classes; on this module's classpath
 * Kernel's 0.9.25 jar comes first, and Iceberg's index works with it.)
 */
class IcebergDeletionVectorInteropTest {

  private static final long TWO_32 = 1L << 32;

  private final Configuration conf = HadoopConfigurations.of(Map.of());

  @TempDir Path dir;

  @Test
  void icebergsRecordIsOursBitForBitBelowTwoToThe32() throws IOException {
    for (List<Long> positions : belowTwoToThe32()) {
      byte[] record = icebergRecord(positions);
      RowPositions ours = rowPositions(positions);

      // The same bitmap bytes, framed the same way: what our writer puts at offset 1.
      assertThat(bitmapOf(record)).isEqualTo(ours.toBitmapData());
      assertThat(record).isEqualTo(Arrays.copyOfRange(ourFile(ours), 1, 1 + record.length));
    }
  }

  @Test
  void icebergsRecordsReadBackThroughOurReaderAndKernels() throws IOException {
    List<List<Long>> cases = new ArrayList<>(belowTwoToThe32());
    // Iceberg writes every bucket up to the largest key, empty ones too; we write only non-empty
    // ones, so above 2^32 the bytes differ and the sets must not.
    cases.add(List.of(1L, TWO_32 + 2, 5 * TWO_32 + 65_537, 9 * TWO_32));
    for (List<Long> positions : cases) {
      byte[] record = icebergRecord(positions);
      UUID id = UUID.randomUUID();
      byte[] file = new byte[1 + record.length];
      file[0] = 1;
      System.arraycopy(record, 0, file, 1, record.length);
      Files.write(dir.resolve("deletion_vector_" + id + ".bin"), file);
      RowPositions expected = rowPositions(positions);
      DeletionVectorDescriptor dv =
          DeletionVectorDescriptor.onDisk(
              "", id, 1, bitmapOf(record).length, expected.cardinality());

      assertThat(RowPositions.fromBitmapData(bitmapOf(record))).isEqualTo(expected);
      assertThat(DeletionVectorReader.read(conf, dir.toString(), dv)).isEqualTo(expected);
      long[] kernel =
          DeletionVectorUtils.loadNewDvAndBitmap(
                  DefaultEngine.create(conf),
                  dir.toString(),
                  new io.delta.kernel.internal.actions.DeletionVectorDescriptor(
                      "u", dv.pathOrInlineDv(), Optional.of(1), dv.sizeInBytes(), dv.cardinality()))
              ._2
              .toArray();
      assertThat(kernel).containsExactly(positions.stream().mapToLong(p -> p).sorted().toArray());
    }
  }

  @Test
  void icebergReadsOurRecords() throws IOException {
    List<List<Long>> cases = new ArrayList<>(belowTwoToThe32());
    cases.add(List.of(1L, TWO_32 + 2, 5 * TWO_32 + 65_537, 9 * TWO_32));
    for (List<Long> positions : cases) {
      RowPositions ours = rowPositions(positions);
      byte[] file = ourFile(ours);
      byte[] record = Arrays.copyOfRange(file, 1, file.length);
      DeleteFile deleteFile =
          FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
              .ofPositionDeletes()
              .withFormat(FileFormat.PUFFIN)
              .withPath(dir.resolve("dv.puffin").toString())
              .withFileSizeInBytes(file.length)
              .withRecordCount(ours.cardinality())
              .withReferencedDataFile(dir.resolve("data.parquet").toString())
              .withContentOffset(1)
              .withContentSizeInBytes(record.length)
              .build();

      PositionDeleteIndex index = PositionDeleteIndex.deserialize(record, deleteFile);

      assertThat(index.cardinality()).isEqualTo(ours.cardinality());
      for (long position : positions) {
        assertThat(index.isDeleted(position)).isTrue();
      }
      assertThat(index.isDeleted(ours.last() + 1)).isFalse();
    }
  }

  private static List<List<Long>> belowTwoToThe32() {
    List<Long> dense = new ArrayList<>();
    for (long p = 0; p < 200_000; p++) {
      dense.add(p);
    }
    List<Long> sparse = new ArrayList<>();
    Random random = new Random(3);
    for (int i = 0; i < 50_000; i++) {
      sparse.add(random.nextLong(TWO_32));
    }
    return List.of(List.of(0L), List.of(3L, 4L, 7L, 11L, 18L, 29L), dense, sparse);
  }

  private static byte[] icebergRecord(List<Long> positions) {
    ByteBuffer buffer =
        Deletes.toPositionIndex(CloseableIterable.withNoopClose(positions)).serialize();
    byte[] record = new byte[buffer.remaining()];
    buffer.get(record);
    return record;
  }

  /** The bitmap of a record, after checking its framing. */
  private static byte[] bitmapOf(byte[] record) {
    ByteBuffer buffer = ByteBuffer.wrap(record);
    int size = buffer.getInt();
    assertThat(record).hasSize(4 + size + 4);
    byte[] bitmap = Arrays.copyOfRange(record, 4, 4 + size);
    CRC32 crc = new CRC32();
    crc.update(bitmap);
    assertThat(ByteBuffer.wrap(record, 4 + size, 4).getInt()).isEqualTo((int) crc.getValue());
    return bitmap;
  }

  private byte[] ourFile(RowPositions positions) throws IOException {
    String name;
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, dir.toString())) {
      writer.write(positions);
      name = writer.relativePath();
    }
    return Files.readAllBytes(dir.resolve(name));
  }

  private static RowPositions rowPositions(List<Long> positions) {
    RowPositions set = new RowPositions();
    positions.forEach(set::add);
    return set;
  }
}
