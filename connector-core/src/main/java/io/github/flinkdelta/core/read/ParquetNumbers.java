/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.parquet.column.Dictionary;

/**
 * The {@link ParquetValue}s of fixed-width values: integers, floating point numbers and booleans,
 * each with a primitive array for a column chunk's dictionary; the widened forms read older files
 * written before Delta's type widening changed a column's type.
 */
final class ParquetNumbers {

  private ParquetNumbers() {}

  static final class Longs extends ParquetValue {
    private long[] dictionary;

    Longs(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = new long[entries.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = entries.decodeToLong(id);
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeLong(field, dictionary[id]);
    }

    @Override
    public void addLong(long value) {
      writer.writeLong(field, value);
    }
  }

  /** A column widened from INT to BIGINT (Delta's type widening): older files hold INT32. */
  static final class LongsFromInts extends ParquetValue {
    private int[] dictionary;

    LongsFromInts(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = ints(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeLong(field, dictionary[id]);
    }

    @Override
    public void addInt(int value) {
      writer.writeLong(field, value);
    }
  }

  static final class Ints extends ParquetValue {
    private int[] dictionary;

    Ints(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = ints(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeInt(field, dictionary[id]);
    }

    @Override
    public void addInt(int value) {
      writer.writeInt(field, value);
    }
  }

  static final class Shorts extends ParquetValue {
    private int[] dictionary;

    Shorts(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = ints(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeShort(field, (short) dictionary[id]);
    }

    @Override
    public void addInt(int value) {
      writer.writeShort(field, (short) value);
    }
  }

  static final class Bytes extends ParquetValue {
    private int[] dictionary;

    Bytes(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = ints(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeByte(field, (byte) dictionary[id]);
    }

    @Override
    public void addInt(int value) {
      writer.writeByte(field, (byte) value);
    }
  }

  static final class Doubles extends ParquetValue {
    private double[] dictionary;

    Doubles(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = new double[entries.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = entries.decodeToDouble(id);
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeDouble(field, dictionary[id]);
    }

    @Override
    public void addDouble(double value) {
      writer.writeDouble(field, value);
    }
  }

  /** A column widened from FLOAT to DOUBLE: older files hold FLOAT. */
  static final class DoublesFromFloats extends ParquetValue {
    private float[] dictionary;

    DoublesFromFloats(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = floats(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeDouble(field, dictionary[id]);
    }

    @Override
    public void addFloat(float value) {
      writer.writeDouble(field, value);
    }
  }

  static final class Floats extends ParquetValue {
    private float[] dictionary;

    Floats(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = floats(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeFloat(field, dictionary[id]);
    }

    @Override
    public void addFloat(float value) {
      writer.writeFloat(field, value);
    }
  }

  static final class Booleans extends ParquetValue {
    private boolean[] dictionary;

    Booleans(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = new boolean[entries.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = entries.decodeToBoolean(id);
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeBoolean(field, dictionary[id]);
    }

    @Override
    public void addBoolean(boolean value) {
      writer.writeBoolean(field, value);
    }
  }

  private static int[] ints(Dictionary entries) {
    int[] values = new int[entries.getMaxId() + 1];
    for (int id = 0; id < values.length; id++) {
      values[id] = entries.decodeToInt(id);
    }
    return values;
  }

  private static float[] floats(Dictionary entries) {
    float[] values = new float[entries.getMaxId() + 1];
    for (int id = 0; id < values.length; id++) {
      values[id] = entries.decodeToFloat(id);
    }
    return values;
  }
}
