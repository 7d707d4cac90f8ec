/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Receives one Parquet column's values from its {@link ColumnChunkReader} and writes each into the
 * row being built, at its field, in Flink's binary row format. The value model is parquet-java's
 * ({@link PrimitiveConverter}): a method for each primitive type and one for dictionary ids.
 *
 * <p>A dictionary-encoded column chunk is converted once per dictionary entry (to a long, a double,
 * a string's bytes, a {@link DecimalData}, ...), so that a row with that entry costs a copy of the
 * converted value into the row and no decoding.
 */
abstract class ParquetValue extends PrimitiveConverter {

  /**
   * The longest string a binary row keeps in its field's fixed-length part; longer strings are
   * written from a view of the page's bytes.
   */
  private static final int SHORTEST_OUTSIDE_FIXED_PART = 7;

  final BinaryRowWriter writer;
  final int field;

  ParquetValue(BinaryRowWriter writer, int field) {
    this.writer = writer;
    this.field = field;
  }

  /**
   * The converter of a column of Flink type {@code type} stored as {@code stored}, writing into
   * {@code field} of the rows of {@code writer}; or null when this reader does not convert that
   * pair (a caller then reads the file with Kernel's reader).
   */
  static ParquetValue of(
      LogicalType type, PrimitiveType stored, BinaryRowWriter writer, int field) {
    PrimitiveTypeName primitive = stored.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = stored.getLogicalTypeAnnotation();
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR ->
          primitive == PrimitiveTypeName.BINARY ? new Strings(writer, field) : null;
      case BINARY, VARBINARY ->
          primitive == PrimitiveTypeName.BINARY
                  || primitive == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
              ? new Binaries(writer, field)
              : null;
      case BIGINT ->
          switch (primitive) {
            case INT64 -> new ParquetNumbers.Longs(writer, field);
            case INT32 -> new ParquetNumbers.LongsFromInts(writer, field);
            default -> null;
          };
      case INTEGER ->
          primitive == PrimitiveTypeName.INT32 ? new ParquetNumbers.Ints(writer, field) : null;
      case SMALLINT ->
          primitive == PrimitiveTypeName.INT32 ? new ParquetNumbers.Shorts(writer, field) : null;
      case TINYINT ->
          primitive == PrimitiveTypeName.INT32 ? new ParquetNumbers.Bytes(writer, field) : null;
      case DATE ->
          primitive == PrimitiveTypeName.INT32 && annotation instanceof DateLogicalTypeAnnotation
              ? new ParquetNumbers.Ints(writer, field)
              : null;
      case DOUBLE ->
          switch (primitive) {
            case DOUBLE -> new ParquetNumbers.Doubles(writer, field);
            case FLOAT -> new ParquetNumbers.DoublesFromFloats(writer, field);
            default -> null;
          };
      case FLOAT ->
          primitive == PrimitiveTypeName.FLOAT ? new ParquetNumbers.Floats(writer, field) : null;
      case BOOLEAN ->
          primitive == PrimitiveTypeName.BOOLEAN
              ? new ParquetNumbers.Booleans(writer, field)
              : null;
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          primitive == PrimitiveTypeName.INT64
                  && annotation instanceof TimestampLogicalTypeAnnotation timestamp
              ? new Timestamps(
                  writer, field, timestamp.getUnit(), LogicalTypeChecks.getPrecision(type))
              : null;
      case DECIMAL ->
          annotation instanceof DecimalLogicalTypeAnnotation storedDecimal
                  && storedDecimal.getScale() == ((DecimalType) type).getScale()
                  && storedDecimal.getPrecision() <= ((DecimalType) type).getPrecision()
              ? Decimals.of(primitive, (DecimalType) type, writer, field)
              : null;
      default -> null;
    };
  }

  /** Bytes: each row gets a copy of its dictionary entry's bytes, or of its plain value's. */
  private static class Binaries extends ParquetValue {
    private byte[][] dictionary;

    Binaries(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = bytes(entries);
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeBinary(field, dictionary[id]);
    }

    @Override
    public void addBinary(Binary binary) {
      writer.writeBinary(field, binary.getBytesUnsafe());
    }
  }

  /**
   * Strings as their UTF-8 bytes, which Flink's binary rows hold as they hold bytes; a plain value
   * longer than a field's fixed part is copied from a view of the page.
   */
  private static final class Strings extends Binaries {
    Strings(BinaryRowWriter writer, int field) {
      super(writer, field);
    }

    @Override
    public void addBinary(Binary binary) {
      ByteBuffer bytes = binary.toByteBuffer();
      if (bytes.hasArray() && bytes.remaining() > SHORTEST_OUTSIDE_FIXED_PART) {
        writer.writeString(
            field,
            StringData.fromBytes(
                bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining()));
      } else {
        writer.writeBinary(field, binary.getBytes());
      }
    }
  }

  /**
   * INT64 timestamps in the file's unit, written as Flink timestamps of the row type's precision:
   * below 4 digits Flink's binary rows keep milliseconds only, as its serializers do.
   */
  private static final class Timestamps extends ParquetValue {
    private final long microsPerUnit;
    private final long unitsPerMicro;
    private final int precision;
    private TimestampData[] dictionary;

    Timestamps(BinaryRowWriter writer, int field, TimeUnit unit, int precision) {
      super(writer, field);
      this.microsPerUnit = unit == TimeUnit.MILLIS ? 1_000 : 1;
      this.unitsPerMicro = unit == TimeUnit.NANOS ? 1_000 : 1;
      this.precision = precision;
    }

    private TimestampData convert(long stored) {
      return KernelRows.timestamp(Math.floorDiv(stored, unitsPerMicro) * microsPerUnit);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = new TimestampData[entries.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = convert(entries.decodeToLong(id));
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      writer.writeTimestamp(field, dictionary[id], precision);
    }

    @Override
    public void addLong(long value) {
      writer.writeTimestamp(field, convert(value), precision);
    }
  }

  /** Decimals stored as unscaled INT32, INT64 or big-endian two's-complement bytes. */
  private static final class Decimals extends ParquetValue {
    private final PrimitiveTypeName stored;
    private final int precision;
    private final int scale;
    private DecimalData[] dictionary;

    private Decimals(
        PrimitiveTypeName stored, DecimalType type, BinaryRowWriter writer, int field) {
      super(writer, field);
      this.stored = stored;
      this.precision = type.getPrecision();
      this.scale = type.getScale();
    }

    static Decimals of(
        PrimitiveTypeName stored, DecimalType type, BinaryRowWriter writer, int field) {
      return switch (stored) {
        case INT32, INT64, BINARY, FIXED_LEN_BYTE_ARRAY ->
            new Decimals(stored, type, writer, field);
        default -> null;
      };
    }

    private DecimalData ofUnscaled(long unscaled) {
      return DecimalData.isCompact(precision)
          ? DecimalData.fromUnscaledLong(unscaled, precision, scale)
          : DecimalData.fromBigDecimal(BigDecimal.valueOf(unscaled, scale), precision, scale);
    }

    private DecimalData ofBytes(Binary bytes) {
      return DecimalData.fromBigDecimal(
          new BigDecimal(new BigInteger(bytes.getBytesUnsafe()), scale), precision, scale);
    }

    private void write(DecimalData value) {
      writer.writeDecimal(field, value, precision);
    }

    @Override
    public void setDictionary(Dictionary entries) {
      dictionary = new DecimalData[entries.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] =
            switch (stored) {
              case INT32 -> ofUnscaled(entries.decodeToInt(id));
              case INT64 -> ofUnscaled(entries.decodeToLong(id));
              default -> ofBytes(entries.decodeToBinary(id));
            };
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      write(dictionary[id]);
    }

    @Override
    public void addInt(int value) {
      write(ofUnscaled(value));
    }

    @Override
    public void addLong(long value) {
      write(ofUnscaled(value));
    }

    @Override
    public void addBinary(Binary value) {
      write(ofBytes(value));
    }
  }

  private static byte[][] bytes(Dictionary entries) {
    byte[][] values = new byte[entries.getMaxId() + 1][];
    for (int id = 0; id < values.length; id++) {
      values[id] = entries.decodeToBinary(id).getBytes();
    }
    return values;
  }
}
