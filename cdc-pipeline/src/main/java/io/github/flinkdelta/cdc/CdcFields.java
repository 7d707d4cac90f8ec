/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.cdc.common.data.ArrayData;
import org.apache.flink.cdc.common.data.LocalZonedTimestampData;
import org.apache.flink.cdc.common.data.MapData;
import org.apache.flink.cdc.common.data.RecordData;
import org.apache.flink.cdc.common.data.ZonedTimestampData;
import org.apache.flink.cdc.common.types.DataField;
import org.apache.flink.cdc.common.types.DataType;
import org.apache.flink.cdc.common.types.DataTypeChecks;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
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

/**
 * Flink CDC's types as the Flink types the dynamic sink takes, and its values as Flink's internal
 * values of those types. Nothing a Delta column can hold is lost:
 *
 * <ul>
 *   <li>{@code CHAR(n)} and {@code VARCHAR(n)} become strings, {@code BINARY(n)} and {@code
 *       VARBINARY(n)} binaries (Delta keeps no length).
 *   <li>{@code TIME} becomes a string of milliseconds ({@code 10:15:30.120}): Delta has no time of
 *       day.
 *   <li>{@code TIMESTAMP} stays a timestamp without zone; {@code TIMESTAMP_LTZ} and {@code
 *       TIMESTAMP WITH TIME ZONE} become instants (Delta's {@code TIMESTAMP}), the latter without
 *       its zone, which no Delta type holds.
 *   <li>Arrays, maps and rows keep their shape, their elements mapped the same way.
 * </ul>
 */
final class CdcFields {

  /** Times of day as Flink CDC 3.2 holds them: to the millisecond, all digits always written. */
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private CdcFields() {}

  /** Turns one Flink CDC value (never null) into Flink's internal value of the mapped type. */
  @FunctionalInterface
  interface Converter extends Serializable {
    Object convert(Object value);
  }

  /** A Flink CDC type mapped: the Flink type, and how its values convert. */
  record Field(LogicalType type, Converter converter) implements Serializable {

    /** {@code value} converted; null stays null. */
    Object convert(Object value) {
      return value == null ? null : converter.convert(value);
    }
  }

  /** {@code type} mapped; its nullability is kept. */
  static Field of(DataType type) {
    Field field = notNull(type);
    return new Field(field.type().copy(type.isNullable()), field.converter());
  }

  private static Field notNull(DataType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> same(new BooleanType());
      case TINYINT -> same(new TinyIntType());
      case SMALLINT -> same(new SmallIntType());
      case INTEGER -> same(new IntType());
      case BIGINT -> same(new BigIntType());
      case FLOAT -> same(new FloatType());
      case DOUBLE -> same(new DoubleType());
      case DATE -> same(new DateType());
      case CHAR, VARCHAR ->
          new Field(
              new VarCharType(VarCharType.MAX_LENGTH),
              value ->
                  StringData.fromBytes(
                      ((org.apache.flink.cdc.common.data.StringData) value).toBytes()));
      case BINARY, VARBINARY -> same(new VarBinaryType(VarBinaryType.MAX_LENGTH));
      case DECIMAL -> decimal(DataTypeChecks.getPrecision(type), DataTypeChecks.getScale(type));
      case TIME_WITHOUT_TIME_ZONE ->
          new Field(
              new VarCharType(VarCharType.MAX_LENGTH),
              value ->
                  StringData.fromString(
                      TIME.format(LocalTime.ofNanoOfDay((Integer) value * 1_000_000L))));
      case TIMESTAMP_WITHOUT_TIME_ZONE ->
          new Field(
              new TimestampType(DataTypeChecks.getPrecision(type)),
              value -> {
                var timestamp = (org.apache.flink.cdc.common.data.TimestampData) value;
                return TimestampData.fromEpochMillis(
                    timestamp.getMillisecond(), timestamp.getNanoOfMillisecond());
              });
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          new Field(
              new LocalZonedTimestampType(DataTypeChecks.getPrecision(type)),
              value -> {
                var instant = (LocalZonedTimestampData) value;
                return TimestampData.fromEpochMillis(
                    instant.getEpochMillisecond(), instant.getEpochNanoOfMillisecond());
              });
      case TIMESTAMP_WITH_TIME_ZONE ->
          new Field(
              new LocalZonedTimestampType(DataTypeChecks.getPrecision(type)),
              value -> TimestampData.fromInstant(((ZonedTimestampData) value).toInstant()));
      case ARRAY -> array((org.apache.flink.cdc.common.types.ArrayType) type);
      case MAP -> map((org.apache.flink.cdc.common.types.MapType) type);
      case ROW -> row((org.apache.flink.cdc.common.types.RowType) type);
    };
  }

  private static Field same(LogicalType type) {
    return new Field(type, value -> value);
  }

  private static Field decimal(int precision, int scale) {
    return new Field(
        new DecimalType(precision, scale),
        value -> {
          BigDecimal decimal =
              ((org.apache.flink.cdc.common.data.DecimalData) value).toBigDecimal();
          DecimalData converted = DecimalData.fromBigDecimal(decimal, precision, scale);
          if (converted == null) {
            throw new IllegalArgumentException(
                String.format(
                    "Flink CDC value %s does not fit its type DECIMAL(%d, %d)",
                    decimal.toPlainString(), precision, scale));
          }
          return converted;
        });
  }

  private static Field array(org.apache.flink.cdc.common.types.ArrayType type) {
    Field element = of(type.getElementType());
    ArrayData.ElementGetter getter = ArrayData.createElementGetter(type.getElementType());
    return new Field(
        new ArrayType(element.type()),
        value -> new GenericArrayData(elements((ArrayData) value, getter, element)));
  }

  private static Field map(org.apache.flink.cdc.common.types.MapType type) {
    Field key = of(type.getKeyType());
    Field value = of(type.getValueType());
    ArrayData.ElementGetter keys = ArrayData.createElementGetter(type.getKeyType());
    ArrayData.ElementGetter values = ArrayData.createElementGetter(type.getValueType());
    return new Field(
        new MapType(key.type(), value.type()),
        map -> {
          MapData entries = (MapData) map;
          Object[] keyArray = elements(entries.keyArray(), keys, key);
          Object[] valueArray = elements(entries.valueArray(), values, value);
          Map<Object, Object> converted = new HashMap<>();
          for (int i = 0; i < keyArray.length; i++) {
            converted.put(keyArray[i], valueArray[i]);
          }
          return new GenericMapData(converted);
        });
  }

  private static Field row(org.apache.flink.cdc.common.types.RowType type) {
    List<DataField> fields = type.getFields();
    Rows rows = new Rows(fields.stream().map(DataField::getType).toList());
    List<RowType.RowField> flinkFields =
        fields.stream()
            .map(
                field ->
                    new RowType.RowField(
                        field.getName(), of(field.getType()).type(), field.getDescription()))
            .toList();
    return new Field(new RowType(flinkFields), value -> rows.convert((RecordData) value));
  }

  private static Object[] elements(ArrayData array, ArrayData.ElementGetter getter, Field field) {
    Object[] elements = new Object[array.size()];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = field.convert(getter.getElementOrNull(array, i));
    }
    return elements;
  }

  /** Converts records of given Flink CDC field types into Flink rows. */
  static final class Rows implements Serializable {

    private static final long serialVersionUID = 1L;

    private final RecordData.FieldGetter[] getters;
    private final Field[] fields;

    Rows(List<DataType> types) {
      getters = new RecordData.FieldGetter[types.size()];
      fields = new Field[types.size()];
      for (int i = 0; i < getters.length; i++) {
        getters[i] = RecordData.createFieldGetter(types.get(i), i);
        fields[i] = of(types.get(i));
      }
    }

    /** The Flink types of the fields, in order. */
    List<LogicalType> types() {
      return java.util.Arrays.stream(fields).map(Field::type).toList();
    }

    /** {@code record} as a Flink row. */
    GenericRowData convert(RecordData record) {
      GenericRowData row = new GenericRowData(getters.length);
      for (int i = 0; i < getters.length; i++) {
        row.setField(i, fields[i].convert(getters[i].getFieldOrNull(record)));
      }
      return row;
    }
  }
}
