/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/** Builds the Parquet schema of a data file from its columns. */
final class ParquetSchemas {

  private ParquetSchemas() {}

  static MessageType messageType(List<ParquetColumn> columns) {
    List<Type> fields = new ArrayList<>(columns.size());
    for (ParquetColumn column : columns) {
      fields.add(type(column, column.physicalName()));
    }
    return new MessageType("delta_schema", fields);
  }

  /** Bytes of a fixed-length array that holds every unscaled value of a decimal's precision. */
  static int decimalBytes(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }

  private static Type type(ParquetColumn column, String name) {
    Repetition repetition = column.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
    Type type =
        switch (column.type().getTypeRoot()) {
          case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
          case TINYINT ->
              Types.primitive(PrimitiveTypeName.INT32, repetition)
                  .as(LogicalTypeAnnotation.intType(8, true))
                  .named(name);
          case SMALLINT ->
              Types.primitive(PrimitiveTypeName.INT32, repetition)
                  .as(LogicalTypeAnnotation.intType(16, true))
                  .named(name);
          case INTEGER -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
          case BIGINT -> Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
          case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
          case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
          case DECIMAL -> decimal((DecimalType) column.type(), repetition, name);
          case CHAR, VARCHAR ->
              Types.primitive(PrimitiveTypeName.BINARY, repetition)
                  .as(LogicalTypeAnnotation.stringType())
                  .named(name);
          case BINARY, VARBINARY ->
              Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
          case DATE ->
              Types.primitive(PrimitiveTypeName.INT32, repetition)
                  .as(LogicalTypeAnnotation.dateType())
                  .named(name);
          case TIMESTAMP_WITHOUT_TIME_ZONE ->
              Types.primitive(PrimitiveTypeName.INT64, repetition)
                  .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS))
                  .named(name);
          case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
              Types.primitive(PrimitiveTypeName.INT64, repetition)
                  .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                  .named(name);
          case ARRAY -> {
            ParquetColumn element = column.children().get(0);
            yield Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.listType())
                .addField(Types.repeatedGroup().addField(type(element, "element")).named("list"))
                .named(name);
          }
          case MAP -> {
            ParquetColumn key = column.children().get(0);
            ParquetColumn value = column.children().get(1);
            yield Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.mapType())
                .addField(
                    Types.repeatedGroup()
                        .addField(type(key, "key"))
                        .addField(type(value, "value"))
                        .named("key_value"))
                .named(name);
          }
          case ROW -> {
            Types.GroupBuilder<org.apache.parquet.schema.GroupType> group =
                Types.buildGroup(repetition);
            for (ParquetColumn child : column.children()) {
              group.addField(type(child, child.physicalName()));
            }
            yield group.named(name);
          }
          default ->
              throw new IllegalArgumentException(
                  "Column '" + column.logicalName() + "' has unsupported type " + column.type());
        };
    return column.fieldId() == ParquetColumn.NO_FIELD_ID ? type : type.withId(column.fieldId());
  }

  private static Type decimal(DecimalType decimal, Repetition repetition, String name) {
    LogicalTypeAnnotation annotation =
        LogicalTypeAnnotation.decimalType(decimal.getScale(), decimal.getPrecision());
    if (decimal.getPrecision() <= 9) {
      return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
    } else if (decimal.getPrecision() <= 18) {
      return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
    }
    return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
        .length(decimalBytes(decimal.getPrecision()))
        .as(annotation)
        .named(name);
  }
}
