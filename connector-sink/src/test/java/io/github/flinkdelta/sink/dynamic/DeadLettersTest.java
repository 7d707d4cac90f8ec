/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.uc.UnityCatalogAccessDeniedException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import org.apache.flink.metrics.SimpleCounter;
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
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * What the dead letters take (refusals, not failures a retry mends) and what a letter holds: the
 * table, the reason, the row's kind and the row as JSON by its type.
 */
class DeadLettersTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DecimalType(10, 2),
            new DateType(),
            new TimestampType(3),
            new LocalZonedTimestampType(3),
            new BinaryType(2),
            new ArrayType(new IntType()),
            new MapType(new IntType(), new VarCharType(VarCharType.MAX_LENGTH)),
            RowType.of(new LogicalType[] {new IntType()}, new String[] {"x"})
          },
          new String[] {"id", "s", "d", "day", "ts", "ltz", "b", "a", "m", "r"});

  @Test
  void refusalsAreTheTablesSayingNoNotFailuresARetryMends() {
    assertThat(DeadLetters.isRefusal(new IllegalArgumentException("column 'v' is integer")))
        .isTrue();
    assertThat(
            DeadLetters.isRefusal(
                new IllegalStateException(
                    "wrapped", new UnityCatalogAccessDeniedException("HTTP 403", null))))
        .isTrue();
    assertThat(DeadLetters.isRefusal(new IllegalStateException("catalog did not answer")))
        .isFalse();
    assertThat(DeadLetters.isRefusal(new RuntimeException(new IOException("connection reset"))))
        .isFalse();
    // An unresolved host: an IllegalArgumentException, below the I/O failure that a retry mends.
    java.net.ConnectException unresolved = new java.net.ConnectException("no such host");
    unresolved.initCause(new java.nio.channels.UnresolvedAddressException());
    assertThat(
            DeadLetters.isRefusal(
                new IllegalStateException("Unity Catalog could not look up the table", unresolved)))
        .isFalse();
  }

  @Test
  void aLetterHoldsTheTableTheReasonTheKindAndTheRowAsJson() {
    SimpleCounter counted = new SimpleCounter();
    DeadLetters letters = new DeadLetters("ops.refused", 10, counted);
    GenericRowData row =
        GenericRowData.of(
            7L,
            StringData.fromString("a \"quoted\" text"),
            DecimalData.fromBigDecimal(new BigDecimal("12.50"), 10, 2),
            19_000,
            TimestampData.fromEpochMillis(1_000),
            TimestampData.fromEpochMillis(2_000),
            new byte[] {1, 2},
            new GenericArrayData(new Integer[] {1, null}),
            new GenericMapData(Map.of(1, StringData.fromString("one"))),
            GenericRowData.of(3));
    row.setRowKind(RowKind.UPDATE_AFTER);

    DynamicRecord letter =
        letters.letterOf(
            new DynamicRecord(DynamicTable.of("db.t", TYPE), row), "column 'v' is integer");

    assertThat(letter.table().name()).isEqualTo("ops.refused");
    assertThat(letter.table().rowType()).isEqualTo(DeadLetters.TYPE);
    RowData held = letter.row();
    assertThat(held.getString(0).toString()).isEqualTo("db.t");
    assertThat(held.getString(1).toString()).isEqualTo("column 'v' is integer");
    assertThat(held.getString(2).toString()).isEqualTo("UPDATE_AFTER");
    assertThat(held.getString(3).toString())
        .isEqualTo(
            "{\"id\":7,\"s\":\"a \\\"quoted\\\" text\",\"d\":12.50,\"day\":\"2022-01-08\","
                + "\"ts\":\"1970-01-01T00:00:01\",\"ltz\":\"1970-01-01T00:00:02Z\",\"b\":\"AQI=\","
                + "\"a\":[1,null],\"m\":[{\"key\":1,\"value\":\"one\"}],\"r\":{\"x\":3}}");
    assertThat(counted.getCount()).isEqualTo(1);
  }

  @Test
  void aRefusedShapeIsRememberedButTheDeadLetterTableItselfIsNeverDeadLettered() {
    DeadLetters letters = new DeadLetters("ops.refused", 1, new SimpleCounter());
    DynamicTable first = DynamicTable.of("db.first", TYPE);
    DynamicTable second = DynamicTable.of("db.second", TYPE);

    assertThat(letters.refused(first, new IllegalArgumentException("no"))).isEqualTo("no");
    assertThat(letters.refusalOf(first)).isEqualTo("no");
    assertThat(letters.refused(second, new IllegalStateException("timeout"))).isNull();
    assertThat(letters.refused(second, new IllegalArgumentException("neither")))
        .isEqualTo("neither");
    assertThat(letters.refusalOf(first)).as("beyond the bound, the eldest is forgotten").isNull();
    assertThat(
            letters.refused(
                DynamicTable.of("ops.refused", DeadLetters.TYPE),
                new IllegalArgumentException("the letters' own table")))
        .isNull();
  }
}
