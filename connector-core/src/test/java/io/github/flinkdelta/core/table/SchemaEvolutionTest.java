/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.schema.SchemaMerge;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables evolve for the rows as the mode allows, before the rows are written, and read back whole
 * and exact afterwards: rows written before have null in new columns and their values widened.
 */
class SchemaEvolutionTest {

  private static final Map<String, String> NAME_MODE = Map.of("delta.columnMapping.mode", "name");

  @TempDir Path dir;

  @Test
  void columnsTheTableLacksAreAddedTopLevelInStructsInArraysOfStructsAndInMapValues()
      throws IOException {
    RowType v1 =
        row(
            "id", new BigIntType(),
            "info", row("a", new IntType()),
            "tags", new ArrayType(row("k", new VarCharType(10))),
            "attrs", new MapType(new VarCharType(10), row("v", new IntType())));
    RowType v2 =
        row(
            "id", new BigIntType(),
            "info", row("a", new IntType(), "b", new VarCharType(10)),
            "tags", new ArrayType(row("k", new VarCharType(10), "w", new IntType())),
            "attrs",
                new MapType(new VarCharType(10), row("v", new IntType(), "u", new VarCharType(10))),
            "note", new VarCharType(20));
    String path = table("add", v1, NAME_MODE);
    write(path, v1, List.of(), SchemaEvolution.ADD_COLUMNS, List.of(v1Row(1)));

    SchemaMerge merge = write(path, v2, List.of(), SchemaEvolution.ADD_COLUMNS, List.of(v2Row(2)));

    assertThat(merge.changes())
        .containsExactly(
            "add column 'info.b' string",
            "add column 'tags.element.w' integer",
            "add column 'attrs.value.u' string",
            "add column 'note' string");
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(
            CanonicalRows.of(
                GenericRowData.of(
                    1L,
                    GenericRowData.of(10, null),
                    array(GenericRowData.of(s("k1"), null)),
                    map(s("m1"), GenericRowData.of(100, null)),
                    null),
                v2),
            CanonicalRows.of(v2Row(2), v2));
  }

  @Test
  void widenWidensTypesAndRecordsTheirChangesWhileOldFilesKeepTheirValues() throws IOException {
    RowType v1 =
        row(
            "b", new TinyIntType(),
            "s", new SmallIntType(),
            "i", new IntType(),
            "f", new FloatType(),
            "d", new DecimalType(5, 2),
            "day", new DateType(),
            "n", new IntType());
    RowType v2 =
        row(
            "b", new SmallIntType(),
            "s", new IntType(),
            "i", new BigIntType(),
            "f", new DoubleType(),
            "d", new DecimalType(12, 4),
            "day", new TimestampType(6),
            "n", new DecimalType(12, 2));
    String path = table("widen", v1, NAME_MODE);
    write(
        path,
        v1,
        List.of(),
        SchemaEvolution.WIDEN,
        List.of(
            GenericRowData.of(
                (byte) 7,
                (short) 300,
                70_000,
                1.5f,
                DecimalData.fromBigDecimal(new BigDecimal("123.45"), 5, 2),
                (int) LocalDate.of(2024, 2, 29).toEpochDay(),
                -5)));

    SchemaMerge merge =
        write(
            path,
            v2,
            List.of(),
            SchemaEvolution.WIDEN,
            List.of(
                GenericRowData.of(
                    (short) 30_000,
                    100_000,
                    5_000_000_000L,
                    0.1d,
                    DecimalData.fromBigDecimal(new BigDecimal("12345678.1234"), 12, 4),
                    TimestampData.fromLocalDateTime(LocalDateTime.of(2025, 1, 2, 3, 4, 5)),
                    DecimalData.fromBigDecimal(new BigDecimal("9999999999.99"), 12, 2))));

    assertThat(merge.widensTypes()).isTrue();
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(
            List.of(
                (short) 7,
                300,
                70_000L,
                1.5d,
                new BigDecimal("123.4500"),
                LocalDateTime.of(2024, 2, 29, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC)
                    * 1_000_000L,
                new BigDecimal("-5.00")),
            List.of(
                (short) 30_000,
                100_000,
                5_000_000_000L,
                0.1d,
                new BigDecimal("12345678.1234"),
                LocalDateTime.of(2025, 1, 2, 3, 4, 5).toEpochSecond(java.time.ZoneOffset.UTC)
                    * 1_000_000L,
                new BigDecimal("9999999999.99")));
    try (DeltaTable table = TestTables.open(path)) {
      assertThat(table.snapshot().getTableProperties())
          .containsEntry("delta.enableTypeWidening", "true");
      StructField b = table.snapshot().getSchema().get("b");
      assertThat(b.getTypeChanges()).hasSize(1);
      assertThat(b.getTypeChanges().get(0).getFrom().toString()).isEqualTo("byte");
    }
    String log = log(path);
    assertThat(log)
        .contains(
            "\\\"delta.typeChanges\\\":[{\\\"toType\\\":\\\"short\\\",\\\"fromType\\\":\\\"byte\\\"}]")
        .contains("\"readerFeatures\":[\"typeWidening\"");
  }

  @Test
  void rowsNarrowerThanTheTableAreWrittenAsTheTablesTypes() throws IOException {
    RowType table = row("id", new BigIntType(), "score", new DoubleType());
    RowType rows = row("id", new IntType(), "score", new FloatType());
    String path = table("narrow", table, Map.of());

    SchemaMerge merge =
        write(
            path,
            rows,
            List.of(),
            SchemaEvolution.NONE,
            List.of(GenericRowData.of(Integer.MAX_VALUE, 0.25f)));

    assertThat(merge.changesTable()).isFalse();
    assertThat(DeltaTableReader.readAll(path))
        .containsExactly(List.of((long) Integer.MAX_VALUE, 0.25d));
    // Nothing but the creation: the table was not changed for the rows.
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
  }

  @Test
  void reorderedRowsAndRowsLackingANullableColumnWriteByName() throws IOException {
    RowType table = row("id", new BigIntType(), "name", new VarCharType(10), "part", new IntType());
    RowType reordered =
        row("part", new IntType(), "ID", new BigIntType(), "Name", new VarCharType(10));
    RowType lacking = row("part", new IntType(), "id", new BigIntType());
    String partitioned = dir.resolve("order").toUri().toString();
    TestTables.create(partitioned, table, List.of("part"), Map.of()).close();

    write(
        partitioned,
        reordered,
        List.of("part"),
        SchemaEvolution.NONE,
        List.of(GenericRowData.of(3, 1L, s("one"))));
    write(
        partitioned,
        lacking,
        List.of("part"),
        SchemaEvolution.NONE,
        List.of(GenericRowData.of(4, 2L)));

    assertThat(DeltaTableReader.readAll(partitioned))
        .containsExactlyInAnyOrder(Arrays.asList(1L, "one", 3), Arrays.asList(2L, null, 4));
  }

  @Test
  void nestedFieldsInAnotherOrderMissingOrNarrowerAreReshapedIntoTheTablesShape()
      throws IOException {
    RowType table =
        row(
            "id", new BigIntType(),
            "info", row("a", new BigIntType(), "b", new VarCharType(10), "c", new IntType()),
            "tags", new ArrayType(row("k", new VarCharType(10), "w", new BigIntType())),
            "attrs", new MapType(new VarCharType(10), row("v", new DoubleType())));
    RowType rows =
        row(
            "attrs", new MapType(new VarCharType(10), row("V", new IntType())),
            "tags", new ArrayType(row("w", new IntType(), "k", new VarCharType(10))),
            "info", row("b", new VarCharType(10), "a", new IntType()),
            "id", new IntType());
    String path = table("reshape", table, NAME_MODE);

    SchemaMerge merge =
        write(
            path,
            rows,
            List.of(),
            SchemaEvolution.NONE,
            List.of(
                GenericRowData.of(
                    map(s("m"), GenericRowData.of(3)),
                    array(GenericRowData.of(5, s("k")), null),
                    GenericRowData.of(s("b"), 7),
                    9)));

    assertThat(merge.changesTable()).isFalse();
    assertThat(DeltaTableReader.readAll(path))
        .containsExactly(
            CanonicalRows.of(
                GenericRowData.of(
                    9L,
                    GenericRowData.of(7L, s("b"), null),
                    array(GenericRowData.of(s("k"), 5L), null),
                    map(s("m"), GenericRowData.of(3.0d))),
                table));
  }

  @Test
  void aNotNullColumnTheRowsLackFailsNamingIt() {
    RowType table = row("id", new BigIntType(false), "name", new VarCharType(10));
    String path = table("notnull", table, NAME_MODE);

    assertThatThrownBy(
            () ->
                write(
                    path,
                    row("name", new VarCharType(10)),
                    List.of(),
                    SchemaEvolution.WIDEN,
                    List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "column 'id' (long NOT NULL) is missing from the rows; the table declares it NOT"
                + " NULL");
  }

  @Test
  void noneListsEveryDifferenceAndCommitsNothing() {
    RowType table = row("id", new IntType(), "name", new VarCharType(10));
    String path = table("none", table, NAME_MODE);
    long before = DeltaTableReader.version(path);

    assertThatThrownBy(
            () ->
                write(
                    path,
                    row("id", new BigIntType(), "name", new IntType(), "extra", new IntType()),
                    List.of(),
                    SchemaEvolution.NONE,
                    List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'id' is integer in the table but long in the rows (set")
        .hasMessageContaining("'widen' to widen the table's column")
        .hasMessageContaining("column 'name' is string in the table but integer in the rows")
        .hasMessageContaining("column 'extra' (integer) of the rows is not in the table (set");
    assertThat(DeltaTableReader.version(path)).isEqualTo(before);
  }

  @Test
  void addColumnsDoesNotWidenButSaysWhichModeWould() {
    RowType table = row("id", new IntType());
    String path = table("nowiden", table, NAME_MODE);

    assertThatThrownBy(
            () ->
                write(
                    path,
                    row("id", new BigIntType(), "extra", new IntType()),
                    List.of(),
                    SchemaEvolution.ADD_COLUMNS,
                    List.of()))
        .hasMessageContaining(
            "column 'id' is integer in the table but long in the rows (set"
                + " 'sink.schema-evolution' = 'widen' to widen the table's column)")
        .hasMessageNotContaining("extra");
  }

  @Test
  void widenMakesNotNullColumnsNullableForRowsThatMaySendNull() throws IOException {
    RowType table = row("id", new BigIntType(false), "name", new VarCharType(false, 10));
    RowType rows = row("id", new BigIntType(false), "name", new VarCharType(10));
    String path = table("relax", table, NAME_MODE);

    SchemaMerge merge =
        write(path, rows, List.of(), SchemaEvolution.WIDEN, List.of(GenericRowData.of(1L, null)));

    assertThat(merge.changes()).containsExactly("make column 'name' nullable");
    assertThat(DeltaTableReader.readAll(path)).containsExactly(Arrays.asList(1L, null));
  }

  @Test
  void withoutWidenANullIntoANotNullColumnIsRefusedRowByRow() {
    RowType table = row("id", new BigIntType(false), "name", new VarCharType(false, 10));
    RowType rows = row("id", new BigIntType(false), "name", new VarCharType(10));
    String path = table("strict", table, NAME_MODE);

    assertThatThrownBy(
            () ->
                write(
                    path,
                    rows,
                    List.of(),
                    SchemaEvolution.ADD_COLUMNS,
                    List.of(GenericRowData.of(1L, null))))
        .hasMessageContaining("name");
  }

  @Test
  void aTableWithoutColumnMappingIsUpgradedInACommitOfItsOwnFirst() throws IOException {
    RowType v1 = row("id", new BigIntType());
    RowType v2 = row("id", new BigIntType(), "note", new VarCharType(10));
    String path = table("upgrade", v1, Map.of());
    write(path, v1, List.of(), SchemaEvolution.ADD_COLUMNS, List.of(GenericRowData.of(1L)));
    long before = DeltaTableReader.version(path);

    write(
        path, v2, List.of(), SchemaEvolution.ADD_COLUMNS, List.of(GenericRowData.of(2L, s("two"))));

    // The upgrade, then the schema, then the rows.
    assertThat(DeltaTableReader.version(path)).isEqualTo(before + 3);
    String upgrade = commit(path, before + 1);
    assertThat(upgrade).contains("\"delta.columnMapping.mode\":\"name\"").doesNotContain("note");
    assertThat(commit(path, before + 2)).contains("note").doesNotContain("\"add\"");
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(Arrays.asList(1L, null), List.of(2L, "two"));
  }

  @Test
  void withoutPermissionToEnableColumnMappingTheChangeFailsSayingWhatToDo() {
    RowType v1 = row("id", new BigIntType());
    String path = table("noupgrade", v1, Map.of());
    long before = DeltaTableReader.version(path);

    try (DeltaTable table = TestTables.open(path)) {
      assertThatThrownBy(
              () ->
                  table
                      .metadata()
                      .evolveFor(
                          row("id", new BigIntType(), "note", new VarCharType(10)),
                          List.of(),
                          SchemaEvolution.ADD_COLUMNS,
                          false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("add column 'note' string")
          .hasMessageContaining("'sink.schema-evolution.enable-column-mapping' = 'true'");
    }
    assertThat(DeltaTableReader.version(path)).isEqualTo(before);
  }

  /** Creates a table of {@code type} at a new path, with one version (the creation). */
  private String table(String name, RowType type, Map<String, String> properties) {
    String path = dir.resolve(name).toUri().toString();
    TestTables.create(path, type, List.of(), properties).close();
    return path;
  }

  /** Evolves the table for {@code type} as {@code mode} allows, then commits {@code rows}. */
  private static SchemaMerge write(
      String path, RowType type, List<String> partitions, SchemaEvolution mode, List<RowData> rows)
      throws IOException {
    var conf = HadoopConfigurations.of(Map.of());
    try (DeltaTable table = TestTables.open(path)) {
      SchemaMerge merge = table.metadata().evolveFor(type, partitions, mode, true);
      FileLayout layout = table.layoutFor(type, partitions);
      List<DataFile> files;
      try (PartitionedDataWriter writer =
          new PartitionedDataWriter(
              layout,
              conf,
              path,
              FileWriteOptions.from(new Configuration()),
              "w" + System.nanoTime())) {
        for (RowData row : rows) {
          writer.write(row);
        }
        files = writer.flush().toList();
      }
      if (!files.isEmpty()) {
        table.checkCommitsAgainst(layout);
        TestTables.committed(table.commit("app", table.transactionVersion("app") + 1, files));
      }
      return merge;
    }
  }

  private static RowData v1Row(long id) {
    return GenericRowData.of(
        id,
        GenericRowData.of((int) id * 10),
        array(GenericRowData.of(s("k" + id))),
        map(s("m" + id), GenericRowData.of((int) id * 100)));
  }

  private static RowData v2Row(long id) {
    return GenericRowData.of(
        id,
        GenericRowData.of((int) id * 10, s("b" + id)),
        array(GenericRowData.of(s("k" + id), (int) id)),
        map(s("m" + id), GenericRowData.of((int) id * 100, s("u" + id))),
        s("note" + id));
  }

  private static String log(String path) throws IOException {
    StringBuilder all = new StringBuilder();
    for (long v = 0; v <= DeltaTableReader.version(path); v++) {
      all.append(commit(path, v));
    }
    return all.toString();
  }

  private static String commit(String path, long version) throws IOException {
    return Files.readString(
        Path.of(java.net.URI.create(path))
            .resolve(String.format("_delta_log/%020d.json", version)));
  }

  private static StringData s(String value) {
    return StringData.fromString(value);
  }

  private static GenericArrayData array(Object... elements) {
    return new GenericArrayData(elements);
  }

  private static GenericMapData map(Object key, Object value) {
    return new GenericMapData(Map.of(key, value));
  }

  private static RowType row(Object... namesAndTypes) {
    List<String> names = new ArrayList<>();
    List<LogicalType> types = new ArrayList<>();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      names.add((String) namesAndTypes[i]);
      types.add((LogicalType) namesAndTypes[i + 1]);
    }
    return RowType.of(types.toArray(LogicalType[]::new), names.toArray(String[]::new));
  }
}
