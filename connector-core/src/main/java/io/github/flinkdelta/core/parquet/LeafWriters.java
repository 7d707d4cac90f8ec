/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.github.flinkdelta.core.parquet.ColumnStats.DecimalStats;
import io.github.flinkdelta.core.parquet.ColumnStats.DoubleStats;
import io.github.flinkdelta.core.parquet.ColumnStats.IntStats;
import io.github.flinkdelta.core.parquet.ColumnStats.LongStats;
import java.util.Arrays;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/** Writers of primitive values, each feeding its column's statistics when they are kept. */
final class LeafWriters {

  private LeafWriters() {}

  /** Base for leaf writers: counts nulls when the column keeps statistics. */
  abstract static class LeafWriter implements ValueWriter {
    private final ColumnStats stats;

    LeafWriter(ColumnStats stats) {
      this.stats = stats;
    }

    @Override
    public final void addNull() {
      if (stats != null) {
        stats.addNull();
      }
    }
  }

  static final class BooleanWriter extends LeafWriter {
    BooleanWriter(ColumnStats stats) {
      super(stats);
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      consumer.addBoolean(row.getBoolean(pos));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addBoolean(array.getBoolean(pos));
    }
  }

  static final class ByteWriter extends LeafWriter {
    private final IntStats stats;

    ByteWriter(IntStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      byte value = row.getByte(pos);
      consumer.addInteger(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addInteger(array.getByte(pos));
    }
  }

  static final class ShortWriter extends LeafWriter {
    private final IntStats stats;

    ShortWriter(IntStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      short value = row.getShort(pos);
      consumer.addInteger(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addInteger(array.getShort(pos));
    }
  }

  static final class IntWriter extends LeafWriter {
    private final IntStats stats;

    IntWriter(IntStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      int value = row.getInt(pos);
      consumer.addInteger(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addInteger(array.getInt(pos));
    }
  }

  static final class LongWriter extends LeafWriter {
    private final LongStats stats;

    LongWriter(LongStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      long value = row.getLong(pos);
      consumer.addLong(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addLong(array.getLong(pos));
    }
  }

  static final class FloatWriter extends LeafWriter {
    private final DoubleStats stats;

    FloatWriter(DoubleStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      float value = row.getFloat(pos);
      consumer.addFloat(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addFloat(array.getFloat(pos));
    }
  }

  static final class DoubleWriter extends LeafWriter {
    private final DoubleStats stats;

    DoubleWriter(DoubleStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      double value = row.getDouble(pos);
      consumer.addDouble(value);
      if (stats != null) {
        stats.add(value);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addDouble(array.getDouble(pos));
    }
  }

  /**
   * Decimals of precision up to 9 go to INT32, up to 18 to INT64, wider ones to a fixed-length
   * big-endian two's-complement array, as the Parquet format specifies.
   */
  static final class DecimalWriter extends LeafWriter {
    private final int precision;
    private final int scale;
    private final DecimalStats stats;
    private final byte[] fixed;

    DecimalWriter(int precision, int scale, DecimalStats stats) {
      super(stats);
      this.precision = precision;
      this.scale = scale;
      this.stats = stats;
      this.fixed = precision > 18 ? new byte[ParquetSchemas.decimalBytes(precision)] : null;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      DecimalData value = row.getDecimal(pos, precision, scale);
      add(consumer, value);
      if (stats != null) {
        if (precision <= 18) {
          stats.addUnscaled(value.toUnscaledLong());
        } else {
          stats.addWide(value.toBigDecimal());
        }
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      add(consumer, array.getDecimal(pos, precision, scale));
    }

    private void add(RecordConsumer consumer, DecimalData value) {
      if (precision <= 9) {
        consumer.addInteger((int) value.toUnscaledLong());
      } else if (precision <= 18) {
        consumer.addLong(value.toUnscaledLong());
      } else {
        byte[] unscaled = value.toUnscaledBytes();
        byte sign = (byte) (unscaled[0] < 0 ? -1 : 0);
        int pad = fixed.length - unscaled.length;
        Arrays.fill(fixed, 0, pad, sign);
        System.arraycopy(unscaled, 0, fixed, pad, unscaled.length);
        // Parquet copies a reused array when it must keep it (dictionary, statistics).
        consumer.addBinary(Binary.fromReusedByteArray(fixed));
      }
    }
  }

  /**
   * Strings go to Parquet as the UTF-8 bytes Flink already holds: no decoding to a Java String and
   * no re-encoding.
   */
  /**
   * Hands a string's UTF-8 bytes to parquet-java in place; its range statistics come from
   * parquet-java's ({@link StringStats}).
   */
  static final class StringWriter extends LeafWriter {
    StringWriter(StringStats stats) {
      super(stats);
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      StringData value = row.getString(pos);
      if (value instanceof BinaryStringData binary) {
        binary.ensureMaterialized();
        if (binary.getSegments().length == 1 && !binary.getSegments()[0].isOffHeap()) {
          consumer.addBinary(
              Binary.fromReusedByteArray(
                  binary.getSegments()[0].getArray(), binary.getOffset(), binary.getSizeInBytes()));
          return;
        }
      }
      consumer.addBinary(Binary.fromReusedByteArray(value.toBytes()));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addBinary(Binary.fromReusedByteArray(array.getString(pos).toBytes()));
    }
  }

  static final class BinaryWriter extends LeafWriter {
    BinaryWriter(ColumnStats stats) {
      super(stats);
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      consumer.addBinary(Binary.fromReusedByteArray(row.getBinary(pos)));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addBinary(Binary.fromReusedByteArray(array.getBinary(pos)));
    }
  }

  /** Timestamps are written as INT64 microseconds since the epoch; finer precision is cut. */
  static final class TimestampWriter extends LeafWriter {
    private final int precision;
    private final LongStats stats;

    TimestampWriter(int precision, LongStats stats) {
      super(stats);
      this.precision = precision;
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      long micros = micros(row.getTimestamp(pos, precision));
      consumer.addLong(micros);
      if (stats != null) {
        stats.add(micros);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addLong(micros(array.getTimestamp(pos, precision)));
    }

    private static long micros(TimestampData value) {
      // getNanoOfMillisecond is in [0, 999_999], so this floors correctly before the epoch too.
      return Math.addExact(
          Math.multiplyExact(value.getMillisecond(), 1000L), value.getNanoOfMillisecond() / 1000);
    }
  }
}
