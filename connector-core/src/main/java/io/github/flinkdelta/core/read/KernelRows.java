/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Rows that Kernel read, as Flink's internal row data: each value converted to the structure Flink
 * holds for its type (strings as {@link StringData}, timestamps as {@link TimestampData} from
 * Delta's microseconds, dates as days). Every type the sink writes converts back.
 */
@Internal
public final class KernelRows {

  private KernelRows() {}

  /** Row {@code rowId} of {@code batch}, its columns in the batch's order. */
  public static GenericRowData rowOf(ColumnarBatch batch, int rowId) {
    StructType schema = batch.getSchema();
    GenericRowData row = new GenericRowData(schema.length());
    for (int i = 0; i < schema.length(); i++) {
      row.setField(i, value(batch.getColumnVector(i), rowId, schema.at(i).getDataType()));
    }
    return row;
  }

  /** The value at {@code rowId} of {@code vector}, of Delta type {@code type}, in Flink's form. */
  public static Object value(ColumnVector vector, int rowId, DataType type) {
    if (vector.isNullAt(rowId)) {
      return null;
    } else if (type instanceof BooleanType) {
      return vector.getBoolean(rowId);
    } else if (type instanceof ByteType) {
      return vector.getByte(rowId);
    } else if (type instanceof ShortType) {
      return vector.getShort(rowId);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return vector.getInt(rowId);
    } else if (type instanceof LongType) {
      return vector.getLong(rowId);
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return timestamp(vector.getLong(rowId));
    } else if (type instanceof FloatType) {
      return vector.getFloat(rowId);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(rowId);
    } else if (type instanceof DecimalType decimal) {
      return DecimalData.fromBigDecimal(
          vector.getDecimal(rowId), decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof StringType) {
      return StringData.fromString(vector.getString(rowId));
    } else if (type instanceof BinaryType) {
      return vector.getBinary(rowId);
    } else if (type instanceof StructType struct) {
      GenericRowData row = new GenericRowData(struct.length());
      for (int i = 0; i < struct.length(); i++) {
        row.setField(i, value(vector.getChild(i), rowId, struct.at(i).getDataType()));
      }
      return row;
    } else if (type instanceof ArrayType array) {
      ArrayValue elements = vector.getArray(rowId);
      Object[] values = new Object[elements.getSize()];
      for (int i = 0; i < values.length; i++) {
        values[i] = value(elements.getElements(), i, array.getElementType());
      }
      return new GenericArrayData(values);
    } else if (type instanceof MapType map) {
      MapValue entries = vector.getMap(rowId);
      Map<Object, Object> values = new HashMap<>();
      for (int i = 0; i < entries.getSize(); i++) {
        values.put(
            value(entries.getKeys(), i, map.getKeyType()),
            value(entries.getValues(), i, map.getValueType()));
      }
      return new GenericMapData(values);
    }
    throw new IllegalArgumentException("Delta type " + type + " has no Flink row data form");
  }

  /**
   * A Kernel literal's value in Flink's form: the value of a partition column, of Delta type {@code
   * type}.
   */
  public static Object literalValue(Object value, DataType type) {
    if (value == null) {
      return null;
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return timestamp((Long) value);
    } else if (type instanceof DecimalType decimal) {
      return DecimalData.fromBigDecimal(
          (BigDecimal) value, decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof StringType) {
      return StringData.fromString((String) value);
    }
    return value;
  }

  /** Delta's microseconds since the epoch as Flink's timestamp. */
  static TimestampData timestamp(long micros) {
    return TimestampData.fromEpochMillis(
        Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
  }
}
