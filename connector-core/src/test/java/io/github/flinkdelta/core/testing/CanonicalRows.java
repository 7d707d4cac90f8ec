/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Turns Flink rows into the canonical Java values {@link DeltaTableReader} produces: boxed
 * primitives, BigDecimal, String, ByteBuffer for binaries, epoch days for dates, epoch microseconds
 * for timestamps, lists for rows and arrays, maps for maps.
 */
public final class CanonicalRows {

  private CanonicalRows() {}

  public static List<Object> of(RowData row, RowType type) {
    List<Object> values = new ArrayList<>(type.getFieldCount());
    for (int i = 0; i < type.getFieldCount(); i++) {
      values.add(
          row.isNullAt(i)
              ? null
              : value(
                  RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row),
                  type.getTypeAt(i)));
    }
    return values;
  }

  private static Object value(Object value, LogicalType type) {
    if (value == null) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
        return value.toString();
      case BINARY:
      case VARBINARY:
        return ByteBuffer.wrap((byte[]) value);
      case DECIMAL:
        return ((DecimalData) value).toBigDecimal();
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        TimestampData ts = (TimestampData) value;
        return ts.getMillisecond() * 1000L + ts.getNanoOfMillisecond() / 1000;
      case ROW:
        return of((RowData) value, (RowType) type);
      case ARRAY:
        {
          LogicalType element = ((ArrayType) type).getElementType();
          ArrayData array = (ArrayData) value;
          ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
          List<Object> out = new ArrayList<>();
          for (int i = 0; i < array.size(); i++) {
            out.add(value(getter.getElementOrNull(array, i), element));
          }
          return out;
        }
      case MAP:
        {
          MapType map = (MapType) type;
          MapData data = (MapData) value;
          ArrayData.ElementGetter keys = ArrayData.createElementGetter(map.getKeyType());
          ArrayData.ElementGetter values = ArrayData.createElementGetter(map.getValueType());
          Map<Object, Object> out = new HashMap<>();
          for (int i = 0; i < data.size(); i++) {
            out.put(
                value(keys.getElementOrNull(data.keyArray(), i), map.getKeyType()),
                value(values.getElementOrNull(data.valueArray(), i), map.getValueType()));
          }
          return out;
        }
      default:
        return value;
    }
  }
}
