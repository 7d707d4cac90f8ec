/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.read.FileRows;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.read.ReadFile;
import io.github.flinkdelta.core.read.SnapshotFiles;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every type Delta has, written through the Parquet writer and read back through Kernel. */
class TypeRoundTripTest {

  static final RowType NESTED =
      RowType.of(
          new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"n_int", "n_str"});

  static final RowType ALL_TYPES =
      RowType.of(
          new LogicalType[] {
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
            new CharType(3),
            new VarCharType(VarCharType.MAX_LENGTH),
            new BinaryType(4),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new DateType(),
            new TimestampType(6),
            new LocalZonedTimestampType(6),
            new TimestampType(3),
            new ArrayType(new IntType()),
            new ArrayType(NESTED),
            new MapType(new VarCharType(false, VarCharType.MAX_LENGTH), new BigIntType()),
            NESTED,
            new IntType(false)
          },
          new String[] {
            "c_bool",
            "c_byte",
            "c_short",
            "c_int",
            "c_long",
            "c_float",
            "c_double",
            "c_dec9",
            "c_dec18",
            "c_dec38",
            "c_char",
            "c_string",
            "c_binary",
            "c_varbinary",
            "c_date",
            "c_ts",
            "c_ts_ltz",
            "c_ts3",
            "c_int_array",
            "c_row_array",
            "c_map",
            "c_row",
            "c_id"
          });

  @TempDir Path dir;

  @Test
  void everyTypeReadsBackEqual() throws Exception {
    List<RowData> rows = new ArrayList<>();
    rows.add(extremes(1, true));
    rows.add(extremes(2, false));
    rows.add(allNull(3));
    rows.add(ordinary(4));

    assertReadsBackEqual("types", ALL_TYPES, List.of(), rows);
  }

  /**
   * Partitioned rows without arrays or maps: the writer holds each partition's few rows encoded
   * until the flush, so every scalar type and nested rows go through that encoding too.
   */
  @Test
  void everyScalarTypeReadsBackEqualThroughHeldRows() throws Exception {
    Projection scalars =
        Projection.of(
            type ->
                type.getTypeRoot() != LogicalTypeRoot.ARRAY
                    && type.getTypeRoot() != LogicalTypeRoot.MAP);
    List<RowData> rows =
        scalars.rows(List.of(extremes(1, true), extremes(2, false), allNull(3), ordinary(4)));

    assertReadsBackEqual("scalars", scalars.type(), List.of("c_id"), rows);
  }

  /**
   * Primitive columns only, which the writer encodes without parquet-java's record shredding: nulls
   * in the first, a middle, the last and every nullable column land as nulls, values around them
   * intact.
   */
  @Test
  void flatRowsReadBackEqualWithNullsInAnyColumn() throws Exception {
    // Every column nullable and the last one null in some rows, so trailing nulls are written too.
    Projection flat =
        Projection.of(
            type ->
                type.isNullable()
                    && type.getTypeRoot() != LogicalTypeRoot.ARRAY
                    && type.getTypeRoot() != LogicalTypeRoot.MAP
                    && type.getTypeRoot() != LogicalTypeRoot.ROW);
    GenericRowData firstNull = extremes(5, true);
    firstNull.setField(0, null);
    GenericRowData middleNull = extremes(6, false);
    middleNull.setField(11, null);
    GenericRowData lastNullable = ordinary(7);
    lastNullable.setField(17, null);
    List<RowData> rows =
        flat.rows(
            List.of(
                extremes(1, true), allNull(2), firstNull, middleNull, lastNullable, ordinary(8)));

    assertReadsBackEqual("flat", flat.type(), List.of(), rows);
    assertThat(CanonicalRows.of(rows.get(1), flat.type())).containsOnlyNulls();
  }

  /** The source's reader reads every type as Kernel's reader does. */
  @Test
  void everyTypeReadsBackEqualThroughTheSourcesReader() throws Exception {
    List<RowData> rows = List.of(extremes(1, true), extremes(2, false), allNull(3), ordinary(4));

    assertSourceReadsBackEqual("source-types", ALL_TYPES, List.of(), rows);
  }

  /**
   * Partition values of every scalar type a table is commonly partitioned by, null ones too: in
   * files of top-level scalars only, which the source reads with its own Parquet column reader, and
   * in files with a nested column, which it reads through Kernel's reader.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void partitionValuesOfEveryScalarTypeReadBackEqualThroughTheSourcesReader(boolean nested)
      throws Exception {
    Projection scalars =
        Projection.of(
            type ->
                type.getTypeRoot() != LogicalTypeRoot.ARRAY
                    && type.getTypeRoot() != LogicalTypeRoot.MAP
                    && (nested || type.getTypeRoot() != LogicalTypeRoot.ROW));
    List<RowData> rows =
        scalars.rows(List.of(extremes(1, true), extremes(2, false), allNull(3), ordinary(4)));
    // Delta stores an empty partition value as null, so the empty c_string reads back as null.
    int string = scalars.type().getFieldIndex("c_string");
    List<List<Object>> expected = new ArrayList<>();
    for (RowData row : rows) {
      List<Object> values = new ArrayList<>(CanonicalRows.of(row, scalars.type()));
      if ("".equals(values.get(string))) {
        values.set(string, null);
      }
      expected.add(values);
    }

    assertSourceReadsBack(
        "source-partitions-" + nested,
        scalars.type(),
        List.of("c_bool", "c_int", "c_long", "c_dec18", "c_string", "c_date", "c_ts"),
        rows,
        expected);
  }

  private void assertSourceReadsBackEqual(
      String name, RowType type, List<String> partitions, List<RowData> rows) throws Exception {
    assertSourceReadsBack(
        name, type, partitions, rows, rows.stream().map(r -> CanonicalRows.of(r, type)).toList());
  }

  private void assertSourceReadsBack(
      String name,
      RowType type,
      List<String> partitions,
      List<RowData> rows,
      List<List<Object>> expected)
      throws Exception {
    String path = dir.resolve(name).toUri().toString();
    List<DataFile> files = TestTables.writeFiles(path, type, partitions, rows);
    org.apache.hadoop.conf.Configuration conf = HadoopConfigurations.of(java.util.Map.of());
    try (DeltaTable table = TestTables.open(path)) {
      table.commit("app", 1, files);
      io.delta.kernel.Snapshot snapshot = table.reload();
      io.delta.kernel.engine.Engine engine =
          io.delta.kernel.defaults.engine.DefaultEngine.create(conf);
      ReadColumns columns = ReadColumns.of(path, snapshot, type.getFieldNames());
      List<List<Object>> read = new ArrayList<>();
      for (ReadFile file : SnapshotFiles.of(engine, snapshot, java.util.Optional.empty(), path)) {
        try (FileRows fileRows = FileRows.open(engine, conf, columns, file, 0)) {
          while (fileRows.next()) {
            read.add(CanonicalRows.of(fileRows.row(), columns.rowType()));
          }
        }
      }
      assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  /** Writes the rows into a new table, commits them and reads the table back. */
  private void assertReadsBackEqual(
      String name, RowType type, List<String> partitions, List<RowData> rows) throws Exception {
    String path = dir.resolve(name).toUri().toString();
    List<DataFile> files = TestTables.writeFiles(path, type, partitions, rows);
    TestTables.open(path).commit("app", 1, files);

    List<List<Object>> expected = rows.stream().map(r -> CanonicalRows.of(r, type)).toList();
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The columns of {@link #ALL_TYPES} whose type passes a test, and rows cut down to them. */
  private record Projection(RowType type, List<Integer> kept) {

    static Projection of(java.util.function.Predicate<LogicalType> keep) {
      List<Integer> kept = new ArrayList<>();
      for (int i = 0; i < ALL_TYPES.getFieldCount(); i++) {
        if (keep.test(ALL_TYPES.getTypeAt(i))) {
          kept.add(i);
        }
      }
      RowType type =
          RowType.of(
              kept.stream().map(ALL_TYPES::getTypeAt).toArray(LogicalType[]::new),
              kept.stream().map(i -> ALL_TYPES.getFieldNames().get(i)).toArray(String[]::new));
      return new Projection(type, kept);
    }

    List<RowData> rows(List<GenericRowData> full) {
      List<RowData> rows = new ArrayList<>();
      for (GenericRowData row : full) {
        GenericRowData projected = new GenericRowData(row.getRowKind(), kept.size());
        for (int k = 0; k < kept.size(); k++) {
          projected.setField(k, row.getField(kept.get(k)));
        }
        rows.add(projected);
      }
      return rows;
    }
  }

  private static GenericRowData extremes(int id, boolean max) {
    return GenericRowData.of(
        max,
        max ? Byte.MAX_VALUE : Byte.MIN_VALUE,
        max ? Short.MAX_VALUE : Short.MIN_VALUE,
        max ? Integer.MAX_VALUE : Integer.MIN_VALUE,
        max ? Long.MAX_VALUE : Long.MIN_VALUE,
        max ? Float.MAX_VALUE : -Float.MAX_VALUE,
        max ? Double.MAX_VALUE : Double.NEGATIVE_INFINITY,
        decimal(max ? "9999999.99" : "-9999999.99", 9, 2),
        decimal(max ? "99999999999999.9999" : "-99999999999999.9999", 18, 4),
        decimal(
            max
                ? "9999999999999999999999999999.9999999999"
                : "-9999999999999999999999999999.9999999999",
            38,
            10),
        StringData.fromString(max ? "zzz" : "\u0000ab"),
        StringData.fromString(max ? "\uD83D\uDE00 emoji and ümlauts" : ""),
        new byte[] {(byte) 0xFF, 0, 1, 2},
        max ? new byte[0] : new byte[] {-128, 127},
        max ? 2_932_896 : -719_162, // 9999-12-31 and 0001-01-01
        TimestampData.fromEpochMillis(max ? 253_402_300_799_999L : -62_135_596_800_000L, 999_000),
        TimestampData.fromEpochMillis(max ? 1L : -1L, max ? 1000 : 999_000),
        TimestampData.fromEpochMillis(-1L),
        new GenericArrayData(max ? new Integer[] {1, null, 3} : new Integer[0]),
        new GenericArrayData(
            max
                ? new Object[] {GenericRowData.of(1, StringData.fromString("a")), null}
                : new Object[0]),
        new GenericMapData(
            max
                ? Map.of(StringData.fromString("k1"), 1L, StringData.fromString("k2"), -1L)
                : Map.of()),
        GenericRowData.of(max ? Integer.MAX_VALUE : null, StringData.fromString("nested")),
        id);
  }

  private static GenericRowData allNull(int id) {
    GenericRowData row = new GenericRowData(ALL_TYPES.getFieldCount());
    row.setField(ALL_TYPES.getFieldCount() - 1, id);
    return row;
  }

  private static GenericRowData ordinary(int id) {
    GenericRowData row = extremes(id, true);
    row.setField(6, Double.NaN);
    row.setField(5, Float.NEGATIVE_INFINITY);
    row.setField(21, GenericRowData.of(null, null));
    return row;
  }

  static DecimalData decimal(String value, int precision, int scale) {
    return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
  }
}
