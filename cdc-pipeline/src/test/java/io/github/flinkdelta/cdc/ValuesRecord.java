/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import org.apache.flink.cdc.common.data.ArrayData;
import org.apache.flink.cdc.common.data.DecimalData;
import org.apache.flink.cdc.common.data.LocalZonedTimestampData;
import org.apache.flink.cdc.common.data.MapData;
import org.apache.flink.cdc.common.data.RecordData;
import org.apache.flink.cdc.common.data.StringData;
import org.apache.flink.cdc.common.data.TimestampData;
import org.apache.flink.cdc.common.data.ZonedTimestampData;

/**
 * A Flink CDC record of values as they are, for the nested values Flink CDC 3.2's binary records
 * cannot hold (arrays and maps).
 */
record ValuesRecord(Object... values) implements RecordData {

  @Override
  public int getArity() {
    return values.length;
  }

  @Override
  public boolean isNullAt(int pos) {
    return values[pos] == null;
  }

  @Override
  public boolean getBoolean(int pos) {
    return (Boolean) values[pos];
  }

  @Override
  public byte getByte(int pos) {
    return (Byte) values[pos];
  }

  @Override
  public short getShort(int pos) {
    return (Short) values[pos];
  }

  @Override
  public int getInt(int pos) {
    return (Integer) values[pos];
  }

  @Override
  public long getLong(int pos) {
    return (Long) values[pos];
  }

  @Override
  public float getFloat(int pos) {
    return (Float) values[pos];
  }

  @Override
  public double getDouble(int pos) {
    return (Double) values[pos];
  }

  @Override
  public byte[] getBinary(int pos) {
    return (byte[]) values[pos];
  }

  @Override
  public StringData getString(int pos) {
    return (StringData) values[pos];
  }

  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    return (DecimalData) values[pos];
  }

  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    return (TimestampData) values[pos];
  }

  @Override
  public ZonedTimestampData getZonedTimestamp(int pos, int precision) {
    return (ZonedTimestampData) values[pos];
  }

  @Override
  public LocalZonedTimestampData getLocalZonedTimestampData(int pos, int precision) {
    return (LocalZonedTimestampData) values[pos];
  }

  @Override
  public ArrayData getArray(int pos) {
    return (ArrayData) values[pos];
  }

  @Override
  public MapData getMap(int pos) {
    return (MapData) values[pos];
  }

  @Override
  public RecordData getRow(int pos, int numFields) {
    return (RecordData) values[pos];
  }
}
