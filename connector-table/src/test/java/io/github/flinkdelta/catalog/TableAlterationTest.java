/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TypeChange;
import java.util.List;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.junit.jupiter.api.Test;

/** The Delta schema that Flink's table changes ask for, and the changes refused. */
class TableAlterationTest {

  private static final String TABLE = "main.default.t";

  /** As Kernel reads it back: column mapping metadata, and a type change recorded on {@code n}. */
  private static final StructType SCHEMA =
      new StructType()
          .add(
              new StructField(
                      "n",
                      ShortType.SHORT,
                      false,
                      mapping("col-n", 1).putString("comment", "count").build())
                  .withTypeChanges(List.of(new TypeChange(ByteType.BYTE, ShortType.SHORT))))
          .add(new StructField("price", new DecimalType(10, 2), true, mapping("col-p", 2).build()))
          .add(
              new StructField(
                  "tags",
                  new ArrayType(IntegerType.INTEGER, true),
                  true,
                  mapping("col-t", 3).build()));

  @Test
  void aWideningKeepsTheColumnsMappingCommentAndRecordedTypeChanges() {
    StructType altered =
        TableAlteration.apply(
            TABLE,
            SCHEMA,
            List.of(
                TableChange.modifyPhysicalColumnType(
                    Column.physical("n", DataTypes.SMALLINT().notNull()),
                    DataTypes.BIGINT().notNull())));

    StructField n = altered.get("n");
    assertThat(n.getDataType()).isEqualTo(LongType.LONG);
    assertThat(n.isNullable()).isFalse();
    assertThat(n.getMetadata()).isEqualTo(SCHEMA.get("n").getMetadata());
    assertThat(n.getTypeChanges()).isEqualTo(SCHEMA.get("n").getTypeChanges());
    assertThat(altered.get("price")).isEqualTo(SCHEMA.get("price"));
  }

  @Test
  void droppingNotNullAndSettingCommentsInOneStatement() {
    StructType altered =
        TableAlteration.apply(
            TABLE,
            SCHEMA,
            List.of(
                TableChange.modify(
                    Column.physical("n", DataTypes.SMALLINT().notNull()).withComment("count"),
                    Column.physical("n", DataTypes.SMALLINT()).withComment("how many"),
                    null),
                TableChange.modifyColumnComment(
                    Column.physical("price", DataTypes.DECIMAL(10, 2)), "in euros"),
                TableChange.add(
                    Column.physical("note", DataTypes.STRING()).withComment("free text"),
                    TableChange.ColumnPosition.after("tags"))));

    assertThat(altered.get("n").isNullable()).isTrue();
    assertThat(altered.get("n").getDataType()).isEqualTo(ShortType.SHORT);
    assertThat(altered.get("n").getMetadata().getString("comment")).isEqualTo("how many");
    assertThat(altered.get("price").getMetadata().getString("comment")).isEqualTo("in euros");
    assertThat(altered.get("price").getMetadata().getString("delta.columnMapping.physicalName"))
        .isEqualTo("col-p");
    assertThat(altered.fieldNames()).containsExactly("n", "price", "tags", "note");
    assertThat(altered.get("note").getDataType()).isEqualTo(StringType.STRING);
    assertThat(altered.get("note").getMetadata().getString("comment")).isEqualTo("free text");

    StructType uncommented =
        TableAlteration.apply(
            TABLE,
            altered,
            List.of(
                TableChange.modifyColumnComment(Column.physical("n", DataTypes.SMALLINT()), null)));
    assertThat(uncommented.get("n").getMetadata().contains("comment")).isFalse();
  }

  @Test
  void refusalsNameTheTableTheColumnAndWhy() {
    assertRefused(
        TableChange.modifyPhysicalColumnType(
            Column.physical("price", DataTypes.DECIMAL(10, 2)), DataTypes.DECIMAL(11, 4)),
        "Cannot alter main.default.t: the type of column 'price' cannot change from DECIMAL(10, 2)"
            + " to DECIMAL(11, 4): Delta cannot read the values already in the table as the new"
            + " type.");
    assertRefused(
        TableChange.modifyPhysicalColumnType(
            Column.physical("n", DataTypes.SMALLINT().notNull()), DataTypes.TINYINT().notNull()),
        "the type of column 'n' cannot change from SMALLINT to TINYINT: that narrows it");
    assertRefused(
        TableChange.modifyPhysicalColumnType(
            Column.physical("price", DataTypes.DECIMAL(10, 2)), DataTypes.DECIMAL(10, 2).notNull()),
        "Cannot alter main.default.t: column 'price' cannot become NOT NULL");
    assertRefused(
        TableChange.modifyPhysicalColumnType(
            Column.physical("tags", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.ARRAY(DataTypes.BIGINT())),
        "Delta widens primitive types only");
    assertRefused(
        TableChange.modifyColumnComment(Column.physical("nope", DataTypes.INT()), "x"),
        "Cannot alter main.default.t: it has no column 'nope'.");
    assertRefused(
        TableChange.add(
            Column.physical("note", DataTypes.STRING()), TableChange.ColumnPosition.after("n")),
        "Cannot alter main.default.t: adding column 'note' at AFTER `n` is not supported.");
    assertRefused(
        TableChange.modify(
            Column.physical("n", DataTypes.SMALLINT().notNull()),
            Column.physical("m", DataTypes.SMALLINT().notNull()),
            null),
        "Cannot alter main.default.t: renaming column 'n' to 'm' is not supported.");
    assertRefused(TableChange.set("k", "v"), "Cannot alter main.default.t: SetOption");
  }

  private static void assertRefused(TableChange change, String message) {
    assertThatThrownBy(() -> TableAlteration.apply(TABLE, SCHEMA, List.of(change)))
        .isInstanceOf(CatalogException.class)
        .hasMessageContaining(message);
  }

  private static FieldMetadata.Builder mapping(String physicalName, long id) {
    return FieldMetadata.builder()
        .putString("delta.columnMapping.physicalName", physicalName)
        .putLong("delta.columnMapping.id", id);
  }
}
