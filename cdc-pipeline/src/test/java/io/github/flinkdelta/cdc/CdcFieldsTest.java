/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.apache.flink.cdc.common.data.GenericArrayData;
import org.apache.flink.cdc.common.data.GenericMapData;
import org.apache.flink.cdc.common.data.LocalZonedTimestampData;
import org.apache.flink.cdc.common.data.RecordData;
import org.apache.flink.cdc.common.data.ZonedTimestampData;
import org.apache.flink.cdc.common.data.binary.BinaryStringData;
import org.apache.flink.cdc.common.types.DataType;
import org.apache.flink.cdc.common.types.DataTypes;
import org.apache.flink.cdc.runtime.typeutils.BinaryRecordDataGenerator;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
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
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Every Flink CDC type, its Flink type and a value of it through Flink CDC's binary records. */
class CdcFieldsTest {

  private static final String STRING = "ß and 東京";

  @Test
  void everyTypeMapsToTheFlinkTypeDeltaHoldsAndItsValuesKeepWhatThatTypeHolds() {
    Instant instant = Instant.parse("2026-12-07T08:30:01.123456Z");
    LocalDateTime local = LocalDateTime.parse("2026-12-07T10:15:30.654321");
    List<Case> cases =
        List.of(
            new Case(DataTypes.BOOLEAN(), true, new BooleanType(), true),
            new Case(DataTypes.TINYINT(), (byte) -3, new TinyIntType(), (byte) -3),
            new Case(DataTypes.SMALLINT(), (short) 300, new SmallIntType(), (short) 300),
            new Case(DataTypes.INT().notNull(), 7, new IntType(false), 7),
            new Case(DataTypes.BIGINT(), 1L << 40, new BigIntType(), 1L << 40),
            new Case(DataTypes.FLOAT(), 1.5f, new FloatType(), 1.5f),
            new Case(DataTypes.DOUBLE(), 2.25, new DoubleType(), 2.25),
            new Case(
                DataTypes.CHAR(3),
                text("abc"),
                new VarCharType(VarCharType.MAX_LENGTH),
                flink("abc")),
            new Case(
                DataTypes.VARCHAR(20),
                text(STRING),
                new VarCharType(VarCharType.MAX_LENGTH),
                flink(STRING)),
            new Case(
                DataTypes.VARBINARY(8),
                new byte[] {1, 2},
                new VarBinaryType(VarBinaryType.MAX_LENGTH),
                new byte[] {1, 2}),
            new Case(
                DataTypes.DECIMAL(38, 10),
                org.apache.flink.cdc.common.data.DecimalData.fromBigDecimal(
                    new BigDecimal("12345678901234567890.0123456789"), 38, 10),
                new DecimalType(38, 10),
                DecimalData.fromBigDecimal(
                    new BigDecimal("12345678901234567890.0123456789"), 38, 10)),
            new Case(DataTypes.DATE(), 20_429, new DateType(), 20_429),
            new Case(
                DataTypes.TIME(3),
                (10 * 3600 + 15 * 60 + 30) * 1000 + 123,
                new VarCharType(VarCharType.MAX_LENGTH),
                flink("10:15:30.123")),
            new Case(
                DataTypes.TIMESTAMP(6),
                org.apache.flink.cdc.common.data.TimestampData.fromLocalDateTime(local),
                new TimestampType(6),
                TimestampData.fromLocalDateTime(local)),
            new Case(
                DataTypes.TIMESTAMP_LTZ(6),
                LocalZonedTimestampData.fromInstant(instant),
                new LocalZonedTimestampType(6),
                TimestampData.fromInstant(instant)),
            new Case(
                DataTypes.TIMESTAMP_TZ(6),
                ZonedTimestampData.fromZonedDateTime(
                    ZonedDateTime.ofInstant(instant, ZoneId.of("Asia/Tokyo"))),
                new LocalZonedTimestampType(6),
                TimestampData.fromInstant(instant)),
            new Case(DataTypes.STRING(), null, new VarCharType(VarCharType.MAX_LENGTH), null));

    DataType[] types = cases.stream().map(Case::cdcType).toArray(DataType[]::new);
    RecordData record = record(types, cases.stream().map(Case::cdcValue).toArray());
    CdcFields.Rows rows = new CdcFields.Rows(List.of(types));
    GenericRowData row = rows.convert(record);

    assertThat(rows.types()).containsExactlyElementsOf(cases.stream().map(Case::type).toList());
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      Object value = row.getField(i);
      assertThat(value).as(c.cdcType().toString()).isEqualTo(c.value());
    }
  }

  @Test
  void arraysAndRowsKeepTheirShapeTheirElementsMappedTheSameWay() {
    // Flink CDC 3.2's binary records hold no arrays; a source's generic ones do.
    List<Case> cases =
        List.of(
            new Case(
                DataTypes.ARRAY(DataTypes.STRING()),
                new GenericArrayData(new Object[] {text("a"), null}),
                new ArrayType(new VarCharType(VarCharType.MAX_LENGTH)),
                new org.apache.flink.table.data.GenericArrayData(new Object[] {flink("a"), null})),
            new Case(
                DataTypes.ROW(
                    DataTypes.FIELD("n", DataTypes.INT()),
                    DataTypes.FIELD("s", DataTypes.STRING())),
                record(
                    new DataType[] {DataTypes.INT(), DataTypes.STRING()},
                    new Object[] {5, text("x")}),
                RowType.of(
                    new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                    new String[] {"n", "s"}),
                GenericRowData.of(5, flink("x"))));
    DataType[] types = cases.stream().map(Case::cdcType).toArray(DataType[]::new);
    CdcFields.Rows rows = new CdcFields.Rows(List.of(types));
    GenericRowData row =
        rows.convert(new ValuesRecord(cases.stream().map(Case::cdcValue).toArray()));

    assertThat(rows.types()).containsExactlyElementsOf(cases.stream().map(Case::type).toList());
    assertThat(((org.apache.flink.table.data.GenericArrayData) row.getField(0)).toObjectArray())
        .containsExactly(flink("a"), null);
    assertThat(row.getField(1)).isEqualTo(GenericRowData.of(5, flink("x")));
  }

  @Test
  void mapsKeepTheirEntriesTheirKeysAndValuesMappedTheSameWay() {
    // Flink CDC 3.2's binary records hold no maps; a source's generic ones do.
    CdcFields.Field field = CdcFields.of(DataTypes.MAP(DataTypes.STRING(), DataTypes.TIME()));
    Map<Object, Object> entries = new java.util.HashMap<>();
    entries.put(text("a"), 1_000);
    entries.put(text("b"), null);

    var map =
        (org.apache.flink.table.data.GenericMapData) field.convert(new GenericMapData(entries));

    assertThat(field.type())
        .isEqualTo(
            new MapType(
                new VarCharType(VarCharType.MAX_LENGTH), new VarCharType(VarCharType.MAX_LENGTH)));
    assertThat(map.size()).isEqualTo(2);
    assertThat(map.get(flink("a"))).isEqualTo(flink("00:00:01.000"));
    assertThat(map.get(flink("b"))).isNull();
  }

  private static RecordData record(DataType[] types, Object[] values) {
    return new BinaryRecordDataGenerator(types).generate(values);
  }

  private static BinaryStringData text(String value) {
    return BinaryStringData.fromString(value);
  }

  private static StringData flink(String value) {
    return StringData.fromString(value);
  }

  /** One column: its Flink CDC type and value, and the Flink type and value it becomes. */
  private record Case(DataType cdcType, Object cdcValue, LogicalType type, Object value) {}
}
