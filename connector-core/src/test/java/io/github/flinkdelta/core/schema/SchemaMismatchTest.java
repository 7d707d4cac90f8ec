/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Rows that do not fit the table fail at build time with every difference named in one message. */
class SchemaMismatchTest {

  private static final RowType NESTED =
      row(new String[] {"a", "b"}, new IntType(), new VarCharType(10));
  private static final RowType TABLE =
      row(new String[] {"id", "bucket", "point"}, new BigIntType(), new IntType(), NESTED);
  private static final TableDefinition DEFINITION =
      new TableDefinition(DeltaTypes.toDeltaSchema(TABLE), List.of("bucket"), Map.of());

  @Test
  void topLevelColumnsMayComeInAnyOrder() {
    RowType reordered =
        row(new String[] {"point", "ID", "bucket"}, NESTED, new BigIntType(), new IntType());

    assertThat(FileLayouts.forRows("t", DEFINITION, reordered, List.of("bucket")).isPartitioned())
        .isTrue();
  }

  @Test
  void aSinkPartitionedOtherwiseThanTheTableIsRefusedNamingBoth() {
    assertThatThrownBy(() -> FileLayouts.forRows("t", DEFINITION, TABLE, List.of("id")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("The rows do not match Delta table t")
        .hasMessageContaining(
            "the sink partitions by [id] but the table is partitioned by [bucket]");
  }

  @Test
  void nestedFieldsInAnotherOrderAreMatchedByName() {
    RowType swapped = row(new String[] {"B", "a"}, new VarCharType(10), new IntType());
    RowType rows =
        row(new String[] {"id", "bucket", "point"}, new BigIntType(), new IntType(), swapped);

    RowData reshaped =
        FileLayouts.forRows("t", DEFINITION, rows, List.of("bucket"))
            .dataRow(GenericRowData.of(7L, 3, GenericRowData.of(StringData.fromString("x"), 42)));

    // The rows are reshaped into the table's order before they are written.
    RowData point = reshaped.getRow(2, 2);
    assertThat(point.getInt(0)).isEqualTo(42);
    assertThat(point.getString(1)).hasToString("x");
  }

  @Test
  void everyDifferenceIsListedInOneMessage() {
    RowType rows =
        row(
            new String[] {"id", "extra", "point"},
            new VarCharType(5),
            new IntType(),
            row(new String[] {"a", "b"}, new BigIntType(), new VarCharType(10)));

    assertThatThrownBy(() -> FileLayouts.forRows("t", DEFINITION, rows, List.of("id")))
        .hasMessageContaining(
            "column 'id' is long in the table but string in the rows, and Delta widens neither")
        .hasMessageContaining(
            "partition column 'bucket' is missing from the rows; every row needs its partition"
                + " value")
        .hasMessageContaining(
            "column 'extra' (integer) of the rows is not in the table (set"
                + " 'sink.schema-evolution' = 'add-columns' to add it)")
        .hasMessageContaining(
            "column 'point.a' is integer in the table but long in the rows (set"
                + " 'sink.schema-evolution' = 'widen' to widen the table's column)")
        .hasMessageContaining("the sink partitions by [id]");
  }

  private static RowType row(String[] names, LogicalType... types) {
    return RowType.of(types, names);
  }
}
