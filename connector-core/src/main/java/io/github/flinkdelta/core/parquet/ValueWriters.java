package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.github.flinkdelta.core.parquet.ColumnStats.DecimalStats;
import io.github.flinkdelta.core.parquet.ColumnStats.DoubleStats;
import io.github.flinkdelta.core.parquet.ColumnStats.IntStats;
import io.github.flinkdelta.core.parquet.ColumnStats.LongStats;
import io.github.flinkdelta.core.parquet.ColumnStats.NullsOnly;
import io.github.flinkdelta.core.parquet.ColumnStats.StringStats;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/** Builds the {@link ValueWriter} tree for a file's columns, with their statistics collectors. */
final class ValueWriters {

  private final String table;
  private final int statsPrefixChars;
  private final List<ColumnStats> stats;

  /**
   * @param table the table name, for error messages
   * @param statsPrefixChars string statistics are cut to this many characters
   * @param stats receives a collector for every column whose statistics are kept
   */
  ValueWriters(String table, int statsPrefixChars, List<ColumnStats> stats) {
    this.table = table;
    this.statsPrefixChars = statsPrefixChars;
    this.stats = stats;
  }

  /** The writer of a column that sits in a row, reached by the path {@code parent}. */
  ValueWriter forColumn(ParquetColumn column, Column parent) {
    Column path = parent.appendNestedField(column.physicalName());
    return create(column, path, column.collectStats());
  }

  private ValueWriter create(ParquetColumn column, Column path, boolean collect) {
    LogicalType type = column.type();
    String name = String.join(".", path.getNames());
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return new BooleanWriter(nullsOnly(path, collect));
      case TINYINT:
        return new ByteWriter(intStats(path, collect, IntStats.Kind.BYTE));
      case SMALLINT:
        return new ShortWriter(intStats(path, collect, IntStats.Kind.SHORT));
      case INTEGER:
        return new IntWriter(intStats(path, collect, IntStats.Kind.INT));
      case DATE:
        return new IntWriter(intStats(path, collect, IntStats.Kind.DATE));
      case BIGINT:
        return new LongWriter(longStats(path, collect, LongStats.Kind.LONG));
      case FLOAT:
        return new FloatWriter(collect ? register(new DoubleStats(path, true)) : null);
      case DOUBLE:
        return new DoubleWriter(collect ? register(new DoubleStats(path, false)) : null);
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        return new DecimalWriter(
            decimal.getPrecision(),
            decimal.getScale(),
            collect
                ? register(new DecimalStats(path, decimal.getPrecision(), decimal.getScale()))
                : null);
      case CHAR:
      case VARCHAR:
        return new StringWriter(collect ? register(new StringStats(path, statsPrefixChars)) : null);
      case BINARY:
      case VARBINARY:
        return new BinaryWriter(nullsOnly(path, collect));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return new TimestampWriter(
            ((TimestampType) type).getPrecision(),
            longStats(path, collect, LongStats.Kind.TIMESTAMP_NTZ));
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new TimestampWriter(
            ((LocalZonedTimestampType) type).getPrecision(),
            longStats(path, collect, LongStats.Kind.TIMESTAMP));
      case ARRAY:
        {
          ParquetColumn element = column.children().get(0);
          return new ArrayWriter(
              table,
              name,
              element,
              create(element, path.appendNestedField("element"), false),
              nullsOnly(path, collect));
        }
      case MAP:
        {
          ParquetColumn key = column.children().get(0);
          ParquetColumn value = column.children().get(1);
          return new MapWriter(
              table,
              name,
              create(key, path.appendNestedField("key"), false),
              value,
              create(value, path.appendNestedField("value"), false),
              nullsOnly(path, collect));
        }
      case ROW:
        {
          List<ParquetColumn> fields = column.children();
          ValueWriter[] writers = new ValueWriter[fields.size()];
          for (int i = 0; i < writers.length; i++) {
            writers[i] =
                create(
                    fields.get(i),
                    path.appendNestedField(fields.get(i).physicalName()),
                    collect && fields.get(i).collectStats());
          }
          return new RowWriter(new FieldsWriter(table, name + ".", fields, writers, null));
        }
      default:
        throw new IllegalArgumentException(
            "Column '" + name + "' of " + table + " has unsupported type " + type);
    }
  }

  private <T extends ColumnStats> T register(T columnStats) {
    stats.add(columnStats);
    return columnStats;
  }

  private NullsOnly nullsOnly(Column path, boolean collect) {
    return collect ? register(new NullsOnly(path)) : null;
  }

  private IntStats intStats(Column path, boolean collect, IntStats.Kind kind) {
    return collect ? register(new IntStats(path, kind)) : null;
  }

  private LongStats longStats(Column path, boolean collect, LongStats.Kind kind) {
    return collect ? register(new LongStats(path, kind)) : null;
  }

  /** Base for leaf writers: counts nulls when the column keeps statistics. */
  private abstract static class LeafWriter implements ValueWriter {
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

  private static final class BooleanWriter extends LeafWriter {
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

  private static final class ByteWriter extends LeafWriter {
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

  private static final class ShortWriter extends LeafWriter {
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

  private static final class IntWriter extends LeafWriter {
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

  private static final class LongWriter extends LeafWriter {
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

  private static final class FloatWriter extends LeafWriter {
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

  private static final class DoubleWriter extends LeafWriter {
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
  private static final class DecimalWriter extends LeafWriter {
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
  private static final class StringWriter extends LeafWriter {
    private final StringStats stats;

    StringWriter(StringStats stats) {
      super(stats);
      this.stats = stats;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      StringData value = row.getString(pos);
      if (value instanceof BinaryStringData binary) {
        binary.ensureMaterialized();
        if (binary.getSegments().length == 1 && !binary.getSegments()[0].isOffHeap()) {
          byte[] heap = binary.getSegments()[0].getArray();
          int offset = binary.getOffset();
          int length = binary.getSizeInBytes();
          consumer.addBinary(Binary.fromReusedByteArray(heap, offset, length));
          if (stats != null) {
            stats.add(heap, offset, length);
          }
          return;
        }
      }
      byte[] bytes = value.toBytes();
      consumer.addBinary(Binary.fromReusedByteArray(bytes));
      if (stats != null) {
        stats.add(bytes, 0, bytes.length);
      }
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.addBinary(Binary.fromReusedByteArray(array.getString(pos).toBytes()));
    }
  }

  private static final class BinaryWriter extends LeafWriter {
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
  private static final class TimestampWriter extends LeafWriter {
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

  /** Three-level Parquet LIST: {@code group (LIST) { repeated group list { element } }}. */
  private static final class ArrayWriter extends LeafWriter {
    private final String table;
    private final String name;
    private final boolean elementNullable;
    private final ValueWriter element;

    ArrayWriter(
        String table,
        String name,
        ParquetColumn elementColumn,
        ValueWriter element,
        ColumnStats stats) {
      super(stats);
      this.table = table;
      this.name = name;
      this.elementNullable = elementColumn.nullable();
      this.element = element;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      writeArray(consumer, row.getArray(pos));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      writeArray(consumer, array.getArray(pos));
    }

    private void writeArray(RecordConsumer consumer, ArrayData array) {
      consumer.startGroup();
      int size = array.size();
      if (size > 0) {
        consumer.startField("list", 0);
        for (int i = 0; i < size; i++) {
          consumer.startGroup();
          if (!array.isNullAt(i)) {
            consumer.startField("element", 0);
            element.write(consumer, array, i);
            consumer.endField("element", 0);
          } else if (!elementNullable) {
            throw new NullValueException(table, name + ".element");
          }
          consumer.endGroup();
        }
        consumer.endField("list", 0);
      }
      consumer.endGroup();
    }
  }

  /** Parquet MAP: {@code group (MAP) { repeated group key_value { key; value } }}. */
  private static final class MapWriter extends LeafWriter {
    private final String table;
    private final String name;
    private final ValueWriter key;
    private final boolean valueNullable;
    private final ValueWriter value;

    MapWriter(
        String table,
        String name,
        ValueWriter key,
        ParquetColumn valueColumn,
        ValueWriter value,
        ColumnStats stats) {
      super(stats);
      this.table = table;
      this.name = name;
      this.key = key;
      this.valueNullable = valueColumn.nullable();
      this.value = value;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      writeMap(consumer, row.getMap(pos));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      writeMap(consumer, array.getMap(pos));
    }

    private void writeMap(RecordConsumer consumer, MapData map) {
      consumer.startGroup();
      int size = map.size();
      if (size > 0) {
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        consumer.startField("key_value", 0);
        for (int i = 0; i < size; i++) {
          consumer.startGroup();
          if (keys.isNullAt(i)) {
            throw new NullValueException(table, name + ".key");
          }
          consumer.startField("key", 0);
          key.write(consumer, keys, i);
          consumer.endField("key", 0);
          if (!values.isNullAt(i)) {
            consumer.startField("value", 1);
            value.write(consumer, values, i);
            consumer.endField("value", 1);
          } else if (!valueNullable) {
            throw new NullValueException(table, name + ".value");
          }
          consumer.endGroup();
        }
        consumer.endField("key_value", 0);
      }
      consumer.endGroup();
    }
  }

  /** A nested row: a Parquet group holding its fields. */
  private static final class RowWriter implements ValueWriter {
    private final FieldsWriter fields;

    RowWriter(FieldsWriter fields) {
      this.fields = fields;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      consumer.startGroup();
      fields.write(consumer, row.getRow(pos, fields.size()));
      consumer.endGroup();
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.startGroup();
      fields.write(consumer, array.getRow(pos, fields.size()));
      consumer.endGroup();
    }

    @Override
    public void addNull() {
      fields.addNull();
    }
  }
}
