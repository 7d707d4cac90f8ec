package io.github.flinkdelta.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
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
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
      try (DataFileRows rows = ParquetColumnRows.open(conf, columns, file)) {
        assertThat(rows).as("the column reader takes every scalar type").isNotNull();
        direct = readAll(rows, SCALARS);
      }
      try (DataFileRows rows = KernelBatchRows.open(engine, columns, file)) {
        assertThat(direct).isEqualTo(readAll(rows, SCALARS));
      }
      read.addAll(direct);
    }
    assertThat(read)
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(r -> CanonicalRows.of(r, SCALARS)).toList());
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
      try (DataFileRows rows = ParquetColumnRows.open(conf, columns, file)) {
        direct = readEveryThirdAndRunsOf(rows, read.rowType());
      }
      try (DataFileRows rows = KernelBatchRows.open(engine, columns, file)) {
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
      assertThat(ParquetColumnRows.open(conf, columns.resolved(), file)).isNull();
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

  /** Files written before a column was widened hold the narrower type: it reads widened. */
  @Test
  void aColumnStoredAsTheTypeItWasWidenedFromReadsWidened() {
    ParquetValue longs =
        ParquetValue.of(LongType.LONG, Types.optional(PrimitiveTypeName.INT32).named("c_widened"));
    longs.addInt(-7);
    assertThat(longs.value).isEqualTo(-7L);

    assertThat(
            ParquetValue.of(
                IntegerType.INTEGER, Types.optional(PrimitiveTypeName.INT64).named("c_narrowed")))
        .as("a narrower type than stored is not read by this reader")
        .isNull();
    assertThat(
            ParquetValue.of(
                io.delta.kernel.types.TimestampType.TIMESTAMP,
                Types.optional(PrimitiveTypeName.INT96).named("c_int96")))
        .as("INT96 timestamps are left to Kernel")
        .isNull();
    assertThat(
            ParquetValue.of(
                new io.delta.kernel.types.DecimalType(10, 3),
                Types.optional(PrimitiveTypeName.INT64)
                    .as(LogicalTypeAnnotation.decimalType(2, 10))
                    .named("c_rescaled")))
        .as("a decimal stored at another scale is left to Kernel")
        .isNull();
  }

  private Snapshot commitSmallRowGroups(String path, RowType type, List<RowData> rows)
      throws IOException {
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    options.set(DeltaSinkOptions.ROW_GROUP_SIZE, MemorySize.parse("64kb"));
    options.set(DeltaSinkOptions.PAGE_SIZE, MemorySize.parse("4kb"));
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
