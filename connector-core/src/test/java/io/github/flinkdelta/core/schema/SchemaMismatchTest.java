package io.github.flinkdelta.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.List;
import java.util.Map;
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
  void nestedFieldsOutOfTheTablesOrderAreRefusedNamingThePosition() {
    RowType swapped = row(new String[] {"b", "a"}, new VarCharType(10), new IntType());
    RowType rows =
        row(new String[] {"id", "bucket", "point"}, new BigIntType(), new IntType(), swapped);

    assertThatThrownBy(() -> FileLayouts.forRows("t", DEFINITION, rows, List.of("bucket")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nested column 'point.a' is not at position 0 in the rows")
        .hasMessageContaining("nested column 'point.b' is not at position 1 in the rows");
  }

  @Test
  void everyDifferenceIsListedInOneMessage() {
    RowType rows = row(new String[] {"id", "extra", "point"}, new IntType(), new IntType(), NESTED);

    assertThatThrownBy(() -> FileLayouts.forRows("t", DEFINITION, rows, List.of("id")))
        .hasMessageContaining("column 'id' is long in the table but integer in the rows")
        .hasMessageContaining("column 'bucket' (integer) is missing from the rows")
        .hasMessageContaining("column 'extra' (integer) of the rows is not in the table")
        .hasMessageContaining("the sink partitions by [id]");
  }

  private static RowType row(String[] names, LogicalType... types) {
    return RowType.of(types, names);
  }
}
