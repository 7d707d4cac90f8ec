/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key the stream sends in a narrower type than the table stores it (the table widened the column)
 * is encoded as the table stores it, so that the stream's key and the table's are one key; a key
 * column the table widened into a type no key can have is refused, naming it.
 */
class KeyEncodingTest {

  @TempDir Path dir;

  @Test
  void aDateKeyIntoATimestampColumnIsTheKeyTheTableHolds() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    RowType tableRows =
        RowType.of(new LogicalType[] {new TimestampType(false, 6)}, new String[] {"day"});
    LocalDate day = LocalDate.of(2026, 12, 6);
    List<String> tableKeys = new ArrayList<>();
    try (DeltaTable table = TestTables.create(path, tableRows, List.of(), Map.of())) {
      table.commit(
          "app",
          1,
          TestTables.writeFiles(
              path,
              tableRows,
              List.of(),
              List.of(
                  GenericRowData.of(TimestampData.fromLocalDateTime(day.atStartOfDay())),
                  GenericRowData.of(
                      TimestampData.fromLocalDateTime(LocalDateTime.of(2026, 12, 6, 1, 0))))));
      table.reload();
      table.scanKeys(
          KeyColumns.of(path, tableRows, List.of("day")),
          (key, fileId, position) -> tableKeys.add(key));
      StructType schema = table.snapshot().getSchema();
      assertThat(schema.get("day").getDataType()).isInstanceOf(TimestampNTZType.class);

      RowType streamRows =
          RowType.of(new LogicalType[] {new DateType(false)}, new String[] {"day"});
      KeyColumns stream = KeyColumns.of(path, streamRows, List.of("day")).forTable(schema);

      assertThat(tableKeys)
          .contains(stream.keyOf(GenericRowData.of((int) day.toEpochDay())))
          .hasSize(2);
    }
  }

  @Test
  void aKeyColumnTheTableWidenedIntoADoubleIsRefusedNamingIt() {
    RowType streamRows = RowType.of(new LogicalType[] {new IntType(false)}, new String[] {"id"});
    StructType schema = new StructType().add("id", DoubleType.DOUBLE, false);

    assertThatThrownBy(() -> KeyColumns.of("t", streamRows, List.of("id")).forTable(schema))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'id'")
        .hasMessageContaining("double")
        .hasMessageContaining("Delta table t");
  }
}
