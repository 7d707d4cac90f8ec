/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The source's own Parquet column reader reads every scalar type exactly as Kernel's reader does,
 * across row groups, pages, dictionary and plain encodings and nulls, whether it reads or passes
 * over each row; and it leaves to Kernel the files it does not convert.
 */
class ParquetColumnRowsTest {

  private static final RowType SCALARS =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new BooleanType(),
            new TinyIntType(),
            new SmallIntType(),
            new IntType(),
            new BigIntType(),
            new FloatType(),
            new DoubleType(),
            new DecimalType(9, 2),
            new DecimalType(18, 4),
            new DecimalType(38, 10),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new DateType(),
            new TimestampType(6),
            new LocalZonedTimestampType(6)
          },
          new String[] {
            "id", "c_bool", "c_byte", "c_short", "c_int", "c_long", "c_float", "c_double",
            "c_dec9", "c_dec18", "c_dec38", "c_few", "c_many", "c_bytes", "c_date", "c_ts",
            "c_ts_ltz"
          });

  private static final int ROWS = 30_000;

  private final Configuration conf = HadoopConfigurations.of(Map.of());
  private final Engine engine = DefaultEngine.create(conf);

  @TempDir Path dir;

  @Test
  void everyScalarTypeReadsAsKernelsReaderReadsIt() throws Exception {
    String path = dir.resolve("scalars").toUri().toString();
    List<RowData> written = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      written.add(row(i));
    }
    Snapshot snapshot = commitSmallRowGroups(path, SCALARS, written);
    ReadColumns.Resolved columns = ReadColumns.of(path, snapshot, List.of()).resolved();

    List<List<Object>> read = new ArrayList<>();
    for (ReadFile file : SnapshotFiles.of(engine, snapshot, Optional.empty(), path)) {
      assertStoredInManyRowGroupsWithDictionaryAndPlainPages(file);
      List<List<Object>> direct;
      try (DataFileRows rows =
          ParquetColumnRows.open(conf, columns, file, PartitionColumns.of(columns, file))) {
        assertThat(rows).as("the column reader takes every scalar type").isNotNull();
        direct = readAll(rows, SCALARS);
      }
      try (DataFileRows rows =
          KernelBatchRows.open(engine, columns, file, PartitionColumns.of(columns, file))) {
        assertThat(direct).isEqualTo(readAll(rows, SCALARS));
      }
      read.addAll(direct);
    }
    assertThat(read)
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(r -> CanonicalRows.of(r, SCALARS)).toList());
  }

  /**
   * A read of a partition column alone takes no column from the file, and still yields each of the
   * file's rows, with its partition value (null for the null partition).
   */
  @Test
  void aReadOfAPartitionColumnAloneYieldsEveryRowOfTheFile() throws Exception {
    String path = dir.resolve("partition-only").toUri().toString();
    List<RowData> written = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      written.add(row(i));
    }
    List<DataFile> files = TestTables.writeFiles(path, SCALARS, List.of("c_few"), written);
    Snapshot snapshot;
    try (DeltaTable table = TestTables.open(path)) {
      table.commit("app", 1, files);
      snapshot = table.reload();
    }
    ReadColumns.Resolved columns = ReadColumns.of(path, snapshot, List.of("c_few")).resolved();

    List<String> read = new ArrayList<>();
    for (ReadFile file : SnapshotFiles.of(engine, snapshot, Optional.empty(), path)) {
      try (DataFileRows rows =
          ParquetColumnRows.open(conf, columns, file, PartitionColumns.of(columns, file))) {
        assertThat(rows).isNotNull();
        while (rows.hasNext()) {
          RowData row = rows.next();
          read.add(row.isNullAt(0) ? null : row.getString(0).toString());
        }
      }
    }
    int few = SCALARS.getFieldIndex("c_few");
    assertThat(read)
        .containsExactlyInAnyOrderElementsOf(
            written.stream()
                .map(row -> row.isNullAt(few) ? null : row.getString(few).toString())
                .toList());
  }

  /** Rows passed over leave every column at the next row, nulls and dictionary pages included. */
  @Test
  void rowsPassedOverLeaveEveryColumnAtTheNextRow() throws Exception {
    String path = dir.resolve("passed-over").toUri().toString();
    List<RowData> written = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      written.add(row(i));
    }
    Snapshot snapshot = commitSmallRowGroups(path, SCALARS, written);
    ReadColumns read =
        ReadColumns.of(path, snapshot, List.of("c_many", "id", "c_few", "c_dec38", "c_ts"));
    ReadColumns.Resolved columns = read.resolved();

    for (ReadFile file : SnapshotFiles.of(engine, snapshot, Optional.empty(), path)) {
      List<List<Object>> direct;
      try (DataFileRows rows =
          ParquetColumnRows.open(conf, columns, file, PartitionColumns.of(columns, file))) {
        direct = readEveryThirdAndRunsOf(rows, read.rowType());
      }
      try (DataFileRows rows =
          KernelBatchRows.open(engine, columns, file, PartitionColumns.of(columns, file))) {
        List<List<Object>> kernel = readEveryThirdAndRunsOf(rows, read.rowType());
        assertThat(direct).hasSizeGreaterThan(ROWS / 8).isEqualTo(kernel);
      }
    }
  }

  @Test
  void filesWithNestedColumnsAreLeftToKernelsReader() throws Exception {
    RowType type =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new ArrayType(new IntType())},
            new String[] {"id", "c_ints"});
    String path = dir.resolve("nested").toUri().toString();
    List<RowData> written = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      written.add(
          GenericRowData.of(
              (long) i, new org.apache.flink.table.data.GenericArrayData(new int[] {i, -i})));
    }
    Snapshot snapshot = commitSmallRowGroups(path, type, written);
    ReadColumns columns = ReadColumns.of(path, snapshot, List.of());

    List<List<Object>> read = new ArrayList<>();
    for (ReadFile file : SnapshotFiles.of(engine, snapshot, Optional.empty(), path)) {
      assertThat(
              ParquetColumnRows.open(
                  conf, columns.resolved(), file, PartitionColumns.of(columns.resolved(), file)))
          .isNull();
      try (FileRows rows = FileRows.open(engine, conf, columns, file, 0)) {
        while (rows.next()) {
          read.add(CanonicalRows.of(rows.row(), type));
        }
      }
    }
    assertThat(read)
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(r -> CanonicalRows.of(r, type)).toList());
  }

  /**
   * Files of another writer: parquet-java's, with version 1 and version 2 data pages, dictionaries
   * that fall back to plain or (version 2) to the delta encodings, and required and optional
   * columns, read as Kernel's reader reads them.
   */
  @ParameterizedTest
  @EnumSource(ParquetProperties.WriterVersion.class)
  void filesOfParquetJavasWriterReadAsKernelsReaderReadsThem(
      ParquetProperties.WriterVersion version) throws Exception {
    RowType type =
        RowType.of(
            new LogicalType[] {
              new BigIntType(false),
              new IntType(),
              new BooleanType(),
              new DoubleType(),
              new FloatType(),
              new VarCharType(VarCharType.MAX_LENGTH),
              new VarCharType(VarCharType.MAX_LENGTH),
              new DateType(),
              new TimestampType(6),
              new DecimalType(18, 4),
              new DecimalType(38, 10)
            },
            new String[] {
              "id",
              "c_int",
              "c_bool",
              "c_double",
              "c_float",
              "c_few",
              "c_many",
              "c_date",
              "c_ts",
              "c_dec18",
              "c_dec38"
            });
    MessageType schema =
        Types.buildMessage()
            .required(PrimitiveTypeName.INT64)
            .named("id")
            .optional(PrimitiveTypeName.INT32)
            .named("c_int")
            .optional(PrimitiveTypeName.BOOLEAN)
            .named("c_bool")
            .optional(PrimitiveTypeName.DOUBLE)
            .named("c_double")
            .optional(PrimitiveTypeName.FLOAT)
            .named("c_float")
            .optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("c_few")
            .optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("c_many")
            .optional(PrimitiveTypeName.INT32)
            .as(LogicalTypeAnnotation.dateType())
            .named("c_date")
            .optional(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS))
            .named("c_ts")
            .optional(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.decimalType(4, 18))
            .named("c_dec18")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
            .length(16)
            .as(LogicalTypeAnnotation.decimalType(10, 38))
            .named("c_dec38")
            .named("spark_schema");
    String table = dir.resolve("foreign-" + version).toUri().toString();
    TestTables.create(table, type, List.of(), Map.of("delta.columnMapping.mode", "none")).close();
    Path file = dir.resolve("foreign-" + version).resolve("part-foreign.parquet");
    int rows = 20_000;
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(conf)
            .withType(schema)
            .withWriterVersion(version)
            .withPageSize(2_048)
            .withDictionaryPageSize(1_024)
            .withRowGroupSize(64L * 1024)
            .build()) {
      for (int i = 0; i < rows; i++) {
        Group group = groups.newGroup().append("id", (long) i);
        if (i % 5 != 0) {
          group
              .append("c_int", i * 31 - 7)
              .append("c_bool", i % 3 == 0)
              .append("c_double", i / 7.0)
              .append("c_float", i / 3.0f)
              .append("c_few", "few-" + i % 6)
              .append("c_many", "many-" + i)
              .append("c_date", 20_000 + i % 400)
              .append("c_ts", 1_780_000_000_000_000L + i * 1_001L)
              .append("c_dec18", (long) i * 12_345)
              .append(
                  "c_dec38",
                  Binary.fromConstantByteArray(
                      fixed(BigInteger.valueOf(i).multiply(BigInteger.TEN.pow(25)), 16)));
        }
        writer.write(group);
      }
    }
    assertStoredWithTheValueEncodings(file, version);
    try (DeltaTable delta = TestTables.open(table)) {
      ReadColumns.Resolved columns = ReadColumns.of(table, delta.reload(), List.of()).resolved();
      ReadFile read =
          new ReadFile(
              file.toUri().toString(),
              java.nio.file.Files.size(file),
              0,
              Map.of(),
              null,
              0,
              WatermarkColumn.UNKNOWN);
      PartitionColumns none = PartitionColumns.of(columns, read);
      try (DataFileRows direct = ParquetColumnRows.open(conf, columns, read, none);
          DataFileRows kernel = KernelBatchRows.open(engine, columns, read, none)) {
        List<List<Object>> expected = readAll(kernel, type);
        assertThat(expected).hasSize(rows);
        assertThat(readAll(direct, type)).isEqualTo(expected);
      }
      try (DataFileRows direct = ParquetColumnRows.open(conf, columns, read, none);
          DataFileRows kernel = KernelBatchRows.open(engine, columns, read, none)) {
        assertThat(readEveryThirdAndRunsOf(direct, type))
            .isEqualTo(readEveryThirdAndRunsOf(kernel, type));
      }
    }
  }

  private void assertStoredWithTheValueEncodings(Path file, ParquetProperties.WriterVersion version)
      throws IOException {
    Set<Encoding> encodings = new HashSet<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
      for (BlockMetaData rowGroup : reader.getRowGroups()) {
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
          encodings.addAll(chunk.getEncodings());
        }
      }
    }
    assertThat(encodings).contains(Encoding.PLAIN);
    if (version == ParquetProperties.WriterVersion.PARQUET_2_0) {
      assertThat(encodings)
          .contains(
              Encoding.RLE_DICTIONARY, Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_BYTE_ARRAY);
    } else {
      assertThat(encodings).contains(Encoding.PLAIN_DICTIONARY);
    }
  }

  /** {@code value} as big-endian two's-complement bytes of {@code length}. */
  private static byte[] fixed(BigInteger value, int length) {
    byte[] minimal = value.toByteArray();
    byte[] bytes = new byte[length];
    byte pad = (byte) (value.signum() < 0 ? -1 : 0);
    java.util.Arrays.fill(bytes, 0, length - minimal.length, pad);
    System.arraycopy(minimal, 0, bytes, length - minimal.length, minimal.length);
    return bytes;
  }

  /**
   * A time attribute's column read at millisecond or second precision: rows hold its values as
   * Flink holds such timestamps, in milliseconds, their microseconds dropped.
   */
  @Test
  void aTimestampReadAtALowerPrecisionDropsItsMicroseconds() throws Exception {
    String path = dir.resolve("precision").toUri().toString();
    List<RowData> written = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      written.add(row(i));
    }
    Snapshot snapshot = commitSmallRowGroups(path, SCALARS, written);
    ReadColumns columns =
        ReadColumns.of(path, snapshot, List.of("id", "c_ts", "c_ts_ltz"))
            .withTimestampPrecision("C_TS", 3)
            .withTimestampPrecision("c_ts_ltz", 0);
    assertThat(columns.rowType().getTypeAt(1)).isEqualTo(new TimestampType(3));
    assertThat(columns.rowType().getTypeAt(2)).isEqualTo(new LocalZonedTimestampType(0));

    int read = 0;
    for (ReadFile file : SnapshotFiles.of(engine, snapshot, Optional.empty(), path)) {
      try (FileRows rows = FileRows.open(engine, conf, columns, file, 0)) {
        while (rows.next()) {
          RowData row = rows.row();
          RowData source = written.get((int) row.getLong(0));
          if (!source.isNullAt(15)) {
            long millis = source.getTimestamp(15, 6).getMillisecond();
            assertThat(row.getTimestamp(1, 3)).isEqualTo(TimestampData.fromEpochMillis(millis));
          }
          if (!source.isNullAt(16)) {
            long millis = source.getTimestamp(16, 6).getMillisecond();
            assertThat(row.getTimestamp(2, 0)).isEqualTo(TimestampData.fromEpochMillis(millis));
          }
          read++;
        }
      }
    }
    assertThat(read).isEqualTo(written.size());
    assertThatThrownBy(
            () -> ReadColumns.of(path, snapshot, List.of()).withTimestampPrecision("c_int", 3))
        .hasMessageContaining(path)
        .hasMessageContaining("'c_int'")
        .hasMessageContaining("TIMESTAMP");
  }

  /** Files written before a column was widened hold the narrower type: it reads widened. */
  @Test
  void aColumnStoredAsTheTypeItWasWidenedFromReadsWidened() {
    BinaryRowData row = new BinaryRowData(1);
    BinaryRowWriter writer = new BinaryRowWriter(row);
    ParquetValue longs =
        ParquetValue.of(
            new BigIntType(),
            Types.optional(PrimitiveTypeName.INT32).named("c_widened"),
            writer,
            0);
    longs.addInt(-7);
    writer.complete();
    assertThat(row.getLong(0)).isEqualTo(-7L);

    assertThat(
            ParquetValue.of(
                new IntType(),
                Types.optional(PrimitiveTypeName.INT64).named("c_narrowed"),
                writer,
                0))
        .as("a narrower type than stored is not read by this reader")
        .isNull();
    assertThat(
            ParquetValue.of(
                new TimestampType(6),
                Types.optional(PrimitiveTypeName.INT96).named("c_int96"),
                writer,
                0))
        .as("INT96 timestamps are left to Kernel")
        .isNull();
    assertThat(
            ParquetValue.of(
                new DecimalType(10, 3),
                Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.decimalType(2, 10))
                    .named("c_rescaled"),
                writer,
                0))
        .as("a decimal stored at another scale is left to Kernel")
        .isNull();
  }

  private Snapshot commitSmallRowGroups(String path, RowType type, List<RowData> rows)
      throws IOException {
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    options.set(TableWriteOptions.ROW_GROUP_SIZE, MemorySize.parse("64kb"));
    options.set(TableWriteOptions.PAGE_SIZE, MemorySize.parse("4kb"));
    List<DataFile> files = TestTables.writeFiles(path, type, List.of(), rows, options);
    try (DeltaTable table = TestTables.open(path)) {
      table.commit("app", 1, files);
      return table.reload();
    }
  }

  private void assertStoredInManyRowGroupsWithDictionaryAndPlainPages(ReadFile file)
      throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.path()), conf))) {
      List<BlockMetaData> rowGroups = reader.getRowGroups();
      assertThat(rowGroups).hasSizeGreaterThan(3);
      boolean dictionary = false;
      boolean plain = false;
      for (BlockMetaData rowGroup : rowGroups) {
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
          EncodingStats stats = chunk.getEncodingStats();
          dictionary |= stats != null && stats.hasDictionaryEncodedPages();
          plain |= stats != null && stats.hasNonDictionaryEncodedPages();
        }
      }
      assertThat(dictionary).as("dictionary-encoded pages").isTrue();
      assertThat(plain).as("plain pages").isTrue();
    }
  }

  private static List<List<Object>> readAll(DataFileRows rows, RowType type) {
    List<List<Object>> read = new ArrayList<>();
    while (rows.hasNext()) {
      read.add(CanonicalRows.of(rows.next(), type));
    }
    return read;
  }

  /** Reads every third row, and passes over runs of 500 rows now and then. */
  private static List<List<Object>> readEveryThirdAndRunsOf(DataFileRows rows, RowType type) {
    List<List<Object>> read = new ArrayList<>();
    for (long position = 0; rows.hasNext(); position++) {
      if (position % 3 == 0 && position % 5_000 >= 500) {
        read.add(CanonicalRows.of(rows.next(), type));
      } else {
        rows.skip();
      }
    }
    return read;
  }

  private static GenericRowData row(int i) {
    int sign = i % 2 == 0 ? 1 : -1;
    Object[] values = {
      (long) i,
      i % 3 == 0,
      (byte) (i % 128 * sign),
      (short) (i * sign),
      i * sign * 7,
      (long) i * sign * 1_000_003L,
      i * sign / 3.0f,
      i * sign / 7.0,
      DecimalData.fromBigDecimal(BigDecimal.valueOf(i * sign, 2), 9, 2),
      DecimalData.fromBigDecimal(BigDecimal.valueOf((long) i * sign * 100_000L, 4), 18, 4),
      DecimalData.fromBigDecimal(
          new BigDecimal("12345678901234567890.1234567891")
              .multiply(BigDecimal.valueOf(sign))
              .add(BigDecimal.valueOf(i)),
          38,
          10),
      StringData.fromString("few-" + i % 8),
      StringData.fromString("many-" + i + "-ünïcödé"),
      new byte[] {(byte) i, (byte) (i >> 8), 0, -1},
      (int) LocalDate.of(2026, 1, 1).plusDays(i * sign).toEpochDay(),
      TimestampData.fromEpochMillis(
          1_780_000_000_000L + (long) i * sign * 1_001, i % 1_000 * 1_000),
      TimestampData.fromEpochMillis(1_700_000_000_000L - (long) i * 999, i % 997 * 1_000)
    };
    GenericRowData row = new GenericRowData(values.length);
    for (int c = 0; c < values.length; c++) {
      // Each nullable column is null at rows of its own period, so nulls fall across pages.
      row.setField(c, c > 0 && i % (c + 4) == 0 ? null : values[c]);
    }
    return row;
  }
}
