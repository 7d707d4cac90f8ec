/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.github.flinkdelta.core.write.PartitionLiterals;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * The partition columns a read takes from one data file: their fields in a row and their values.
 */
final class PartitionColumns {

  private final int[] fields;
  private final LogicalType[] types;

  /** Each partition column's value in Flink's internal form, or null. */
  private final Object[] values;

  private PartitionColumns(int[] fields, LogicalType[] types, Object[] values) {
    this.fields = fields;
    this.types = types;
    this.values = values;
  }

  /** The partition columns of {@code columns} with their values in {@code file}. */
  static PartitionColumns of(ReadColumns.Resolved columns, ReadFile file) {
    List<Integer> fields = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < columns.types.length; i++) {
      if (columns.physicalIndex[i] < 0) {
        String value = file.partitionValues().get(columns.partitionKey[i]);
        fields.add(i);
        values.add(
            KernelRows.literalValue(
                value == null
                    ? null
                    : PartitionLiterals.literal(columns.types[i], value).getValue(),
                columns.types[i]));
      }
    }
    return new PartitionColumns(
        fields.stream().mapToInt(Integer::intValue).toArray(),
        fields.stream().map(columns.rowType::getTypeAt).toArray(LogicalType[]::new),
        values.toArray());
  }

  /** Puts the values into their fields of {@code row}. */
  void set(GenericRowData row) {
    for (int p = 0; p < fields.length; p++) {
      row.setField(fields[p], values[p]);
    }
  }

  /** Writes the values into their fields of the row {@code writer} builds. */
  void write(BinaryRowWriter writer) {
    for (int p = 0; p < fields.length; p++) {
      write(writer, fields[p], types[p], values[p]);
    }
  }

  private static void write(BinaryRowWriter writer, int field, LogicalType type, Object value) {
    if (value == null) {
      writer.setNullAt(field);
      return;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN -> writer.writeBoolean(field, (Boolean) value);
      case TINYINT -> writer.writeByte(field, (Byte) value);
      case SMALLINT -> writer.writeShort(field, (Short) value);
      case INTEGER, DATE -> writer.writeInt(field, (Integer) value);
      case BIGINT -> writer.writeLong(field, (Long) value);
      case FLOAT -> writer.writeFloat(field, (Float) value);
      case DOUBLE -> writer.writeDouble(field, (Double) value);
      case CHAR, VARCHAR -> writer.writeString(field, (StringData) value);
      case BINARY, VARBINARY -> writer.writeBinary(field, (byte[]) value);
      case DECIMAL ->
          writer.writeDecimal(field, (DecimalData) value, ((DecimalType) type).getPrecision());
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          writer.writeTimestamp(field, (TimestampData) value, LogicalTypeChecks.getPrecision(type));
      default ->
          throw new IllegalArgumentException(
              "A partition column of type " + type + " has no binary row form");
    }
  }
}
