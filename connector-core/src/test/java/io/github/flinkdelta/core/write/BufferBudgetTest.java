/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.parquet.NullValueException;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Open files across many partitions stay within the buffer budget, and no row is lost. */
class BufferBudgetTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new IntType(), new VarCharType(1000)},
          new String[] {"id", "bucket", "payload"});

  @TempDir Path dir;

  @Test
  void largestOpenFileIsCompletedWhenTheBudgetIsExceeded() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    DeltaTable table = TestTables.create(path, TYPE, List.of("bucket"), Map.of());
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    long budget = MemorySize.parse("2mb").getBytes();
    options.set(TableWriteOptions.BUFFER_BUDGET, new MemorySize(budget));
    FileWriteOptions writeOptions = FileWriteOptions.from(options);

    int partitions = 100;
    long rows = 20_000;
    long maxBuffered = 0;
    List<DataFile> files;
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of("bucket")),
            HadoopConfigurations.of(Map.of()),
            path,
            writeOptions,
            "p")) {
      for (long i = 0; i < rows; i++) {
        writer.write(
            GenericRowData.of(
                i,
                (int) (i / 20 % partitions),
                StringData.fromString("payload " + i + " " + "y".repeat(120))));
        maxBuffered = Math.max(maxBuffered, writer.bufferedBytes());
      }
      files = writer.flush().toList();
      assertThat(writer.openFileCount()).isZero();
      assertThat(writer.bufferedBytes()).isZero();
    }

    assertThat(maxBuffered).isLessThanOrEqualTo(budget);
    // Rows come in runs of 20 per partition; the budget closed files before the flush, so some
    // partitions hold several files.
    assertThat(files.size()).isGreaterThan(partitions);
    assertThat(files.stream().mapToLong(DataFile::numRecords).sum()).isEqualTo(rows);
  }

  @Test
  void partitionsOfFewRowsAreHeldAndGetOneFileEach() throws Exception {
    int partitions = 5_000;
    long rows = 3L * partitions;
    // One row object and one payload array for every row, as Flink may reuse them.
    GenericRowData reused = new GenericRowData(3);
    byte[] payload = new byte[16];
    reused.setField(2, StringData.fromBytes(payload));
    List<List<Object>> expected = new java.util.ArrayList<>();
    int maxOpenFiles = 0;
    List<DataFile> files;
    try (PartitionedDataWriter writer = bucketWriter("few-rows", TYPE)) {
      for (long i = 0; i < rows; i++) {
        String text = String.format("%016d", i);
        System.arraycopy(
            text.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, payload, 0, 16);
        reused.setField(0, i);
        reused.setField(1, (int) (i % partitions));
        writer.write(reused);
        expected.add(List.of(i, (int) (i % partitions), text));
        maxOpenFiles = Math.max(maxOpenFiles, writer.openFileCount());
      }
      assertThat(writer.bufferedBytes()).isPositive();
      files = writer.flush().toList();
      assertThat(writer.bufferedBytes()).isZero();
    }

    // Three rows per partition never justify an open file; the flush writes one file each.
    assertThat(maxOpenFiles).isZero();
    assertThat(files).hasSize(partitions);
    String path = dir.resolve("few-rows").toUri().toString();
    TestTables.open(path).commit("held-rows-test", 1, files);
    assertThat(io.github.flinkdelta.core.testing.DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aPartitionWhoseHeldRowsOutgrowAnOpenFileGetsOne() throws Exception {
    List<DataFile> files;
    try (PartitionedDataWriter writer = bucketWriter("outgrow", TYPE)) {
      for (long i = 0; i < 2_000; i++) {
        writer.write(GenericRowData.of(i, 7, StringData.fromString("x".repeat(100))));
      }
      assertThat(writer.openFileCount()).isEqualTo(1);
      files = writer.flush().toList();
    }
    assertThat(files).hasSize(1);
    assertThat(files.get(0).numRecords()).isEqualTo(2_000);
  }

  @Test
  void aNullInANotNullColumnFailsAtTheRowEvenWhenTheRowWouldBeHeld() throws Exception {
    RowType type =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new IntType(), new VarCharType(10)},
            new String[] {"id", "bucket", "payload"});
    try (PartitionedDataWriter writer = bucketWriter("not-null", type)) {
      writer.write(GenericRowData.of(1L, 1, StringData.fromString("ok")));
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> writer.write(GenericRowData.of(null, 2, StringData.fromString("bad"))))
          .isInstanceOf(NullValueException.class)
          .hasMessageContaining("column 'id' is NOT NULL");
    }
  }

  @Test
  void aNullInANotNullPartitionColumnFailsWhetherRowsAreHeldOrWritten() throws Exception {
    RowType held =
        RowType.of(
            new LogicalType[] {new BigIntType(), new IntType(false)},
            new String[] {"id", "bucket"});
    RowType written =
        RowType.of(
            new LogicalType[] {
              new BigIntType(),
              new IntType(false),
              new org.apache.flink.table.types.logical.ArrayType(new IntType())
            },
            new String[] {"id", "bucket", "tags"});
    for (RowType type : List.of(held, written)) {
      try (PartitionedDataWriter writer = bucketWriter("not-null-" + type.getFieldCount(), type)) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        row.setField(0, 1L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> writer.write(row))
            .as("%s", type)
            .isInstanceOf(NullValueException.class)
            .hasMessageContaining("column 'bucket' is NOT NULL");
        assertThat(writer.flush().isEmpty()).isTrue();
      }
    }
  }

  @Test
  void openFilesOfRowsWithArraysCountAgainstTheBudgetFromTheirFirstRow() throws Exception {
    // Rows with an array column are never held: every partition gets an open file at once.
    RowType type =
        RowType.of(
            new LogicalType[] {
              new BigIntType(),
              new IntType(),
              new org.apache.flink.table.types.logical.ArrayType(new IntType())
            },
            new String[] {"id", "bucket", "tags"});
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    long budget = MemorySize.parse("1mb").getBytes();
    options.set(TableWriteOptions.BUFFER_BUDGET, new MemorySize(budget));
    int partitions = 200;
    int maxOpenFiles = 0;
    List<DataFile> files;
    try (PartitionedDataWriter writer = bucketWriter("arrays", type, options)) {
      for (long i = 0; i < 2L * partitions; i++) {
        writer.write(
            GenericRowData.of(
                i,
                (int) (i % partitions),
                new org.apache.flink.table.data.GenericArrayData(new int[] {(int) i})));
        assertThat(writer.bufferedBytes()).isLessThanOrEqualTo(budget);
        maxOpenFiles = Math.max(maxOpenFiles, writer.openFileCount());
      }
      files = writer.flush().toList();
    }

    assertThat(maxOpenFiles).isLessThanOrEqualTo((int) (budget / (64 * 1024)));
    assertThat(files.size()).isGreaterThan(partitions);
    assertThat(files.stream().mapToLong(DataFile::numRecords).sum()).isEqualTo(2L * partitions);
  }

  /** A writer into a new table {@code name} of {@code type}, partitioned by bucket. */
  private PartitionedDataWriter bucketWriter(String name, RowType type) {
    return bucketWriter(name, type, new org.apache.flink.configuration.Configuration());
  }

  private PartitionedDataWriter bucketWriter(
      String name, RowType type, org.apache.flink.configuration.Configuration options) {
    String path = dir.resolve(name).toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    DeltaTable table = TestTables.create(path, conf, type, List.of("bucket"), Map.of());
    return new PartitionedDataWriter(
        table.layoutFor(type, List.of("bucket")), conf, path, FileWriteOptions.from(options), name);
  }
}
