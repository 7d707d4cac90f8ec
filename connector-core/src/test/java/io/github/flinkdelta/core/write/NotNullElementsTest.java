/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.parquet.NullValueException;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Array elements and map values the table declares non-null ({@code containsNull} and {@code
 * valueContainsNull} false) refuse nulls row by row, like NOT NULL columns, whatever the rows' type
 * says: a job whose query may produce null elements still writes its rows without nulls.
 */
class NotNullElementsTest {

  private static final RowType TABLE =
      type(new IntType(false), new IntType(false), new IntType(false));
  private static final RowType ROWS = type(new IntType(), new IntType(), new IntType());

  @TempDir Path dir;

  @Test
  void aNullArrayElementIsRefusedNamingTheColumn() throws Exception {
    try (PartitionedDataWriter writer = writer("array")) {
      assertThatThrownBy(() -> writer.write(row(new Integer[] {1, null}, Map.of("a", 1), 1)))
          .isInstanceOf(NullValueException.class)
          .hasMessageContaining("column 'tags.element' is NOT NULL");
    }
  }

  @Test
  void aNullMapValueIsRefusedNamingTheColumn() throws Exception {
    java.util.HashMap<Object, Object> scores = new java.util.HashMap<>();
    scores.put(StringData.fromString("a"), null);
    try (PartitionedDataWriter writer = writer("map")) {
      assertThatThrownBy(() -> writer.write(row(new Integer[] {1}, scores, 1)))
          .isInstanceOf(NullValueException.class)
          .hasMessageContaining("column 'scores.value' is NOT NULL");
    }
  }

  @Test
  void aNullElementOfANestedArrayIsRefused() throws Exception {
    try (PartitionedDataWriter writer = writer("nested")) {
      GenericRowData row = row(new Integer[] {1}, Map.of("a", 1), 1);
      row.setField(
          3,
          new GenericArrayData(
              new Object[] {
                new GenericArrayData(new Integer[] {2}), new GenericArrayData(new Integer[] {null})
              }));
      assertThatThrownBy(() -> writer.write(row))
          .isInstanceOf(NullValueException.class)
          .hasMessageContaining("column 'matrix.element.element' is NOT NULL");
    }
  }

  @Test
  void rowsWithoutNullsAreWritten() throws Exception {
    try (PartitionedDataWriter writer = writer("fine")) {
      writer.write(row(new Integer[] {1, 2}, Map.of("a", 1, "b", 2), 3));
      writer.write(row(new Integer[] {}, Map.of(), 4));
      assertThat(writer.flush().numRecords()).isEqualTo(2);
    }
  }

  private PartitionedDataWriter writer(String name) {
    String path = dir.resolve(name).toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    DeltaTable table = TestTables.create(path, conf, TABLE, List.of(), Map.of());
    return new PartitionedDataWriter(
        table.layoutFor(ROWS, List.of()),
        conf,
        path,
        FileWriteOptions.from(new org.apache.flink.configuration.Configuration()),
        name);
  }

  private static RowType type(LogicalType element, LogicalType value, LogicalType inner) {
    return RowType.of(
        new LogicalType[] {
          new BigIntType(),
          new ArrayType(element),
          new MapType(new VarCharType(false, 10), value),
          new ArrayType(new ArrayType(inner))
        },
        new String[] {"id", "tags", "scores", "matrix"});
  }

  private static GenericRowData row(Integer[] tags, Map<?, ?> scores, int inner) {
    java.util.HashMap<Object, Object> map = new java.util.HashMap<>();
    scores.forEach((k, v) -> map.put(k instanceof String s ? StringData.fromString(s) : k, v));
    return GenericRowData.of(
        1L,
        new GenericArrayData(tags),
        new GenericMapData(map),
        new GenericArrayData(new Object[] {new GenericArrayData(new Integer[] {inner})}));
  }
}
