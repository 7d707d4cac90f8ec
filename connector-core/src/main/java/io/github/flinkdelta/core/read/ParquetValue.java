package io.github.flinkdelta.core.read;

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
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
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
 * Receives one Parquet column's values from parquet-java's column reader and holds the current one
 * in Flink's form ({@link #value}), ready to be put in a row.
 *
 * <p>A dictionary-encoded column chunk is converted once per dictionary entry: every row with that
 * entry gets the same immutable value (a {@link StringData}, a boxed number, a {@link
 * DecimalData}), so a string column of few distinct values costs no copy and no allocation per row.
 * Binary values are mutable arrays and are copied per row instead.
 */
abstract class ParquetValue extends PrimitiveConverter {

  /** The value the column reader last wrote. */
  Object value;

  private Object[] dictionary;

  /**
   * The converter of a column of Delta type {@code type} stored as {@code stored}, or null when
   * this reader does not convert that pair (a caller then reads the file with Kernel's reader).
   */
  static ParquetValue of(DataType type, PrimitiveType stored) {
    PrimitiveTypeName primitive = stored.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = stored.getLogicalTypeAnnotation();
    if (type instanceof StringType) {
      return primitive == PrimitiveTypeName.BINARY ? new Strings() : null;
    } else if (type instanceof LongType) {
      return switch (primitive) {
        case INT64 -> new Longs();
        case INT32 -> new LongsFromInts();
        default -> null;
      };
    } else if (type instanceof IntegerType) {
      return primitive == PrimitiveTypeName.INT32 ? new Ints() : null;
    } else if (type instanceof ShortType) {
      return primitive == PrimitiveTypeName.INT32 ? new Shorts() : null;
    } else if (type instanceof ByteType) {
      return primitive == PrimitiveTypeName.INT32 ? new Bytes() : null;
    } else if (type instanceof DateType) {
      return primitive == PrimitiveTypeName.INT32 && annotation instanceof DateLogicalTypeAnnotation
          ? new Ints()
          : null;
    } else if (type instanceof DoubleType) {
      return switch (primitive) {
        case DOUBLE -> new Doubles();
        case FLOAT -> new DoublesFromFloats();
        default -> null;
      };
    } else if (type instanceof FloatType) {
      return primitive == PrimitiveTypeName.FLOAT ? new Floats() : null;
    } else if (type instanceof BooleanType) {
      return primitive == PrimitiveTypeName.BOOLEAN ? new Booleans() : null;
    } else if (type instanceof BinaryType) {
      return primitive == PrimitiveTypeName.BINARY
              || primitive == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
          ? new Binaries()
          : null;
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return primitive == PrimitiveTypeName.INT64
              && annotation instanceof TimestampLogicalTypeAnnotation timestamp
          ? Timestamps.of(timestamp.getUnit())
          : null;
    } else if (type instanceof DecimalType decimal) {
      return annotation instanceof DecimalLogicalTypeAnnotation storedDecimal
              && storedDecimal.getScale() == decimal.getScale()
              && storedDecimal.getPrecision() <= decimal.getPrecision()
          ? Decimals.of(primitive, decimal.getPrecision(), decimal.getScale())
          : null;
    }
    return null;
  }

  /** The value of dictionary entry {@code id} in Flink's form. */
  abstract Object fromDictionary(Dictionary dictionary, int id);

  @Override
  public boolean hasDictionarySupport() {
    return true;
  }

  @Override
  public void setDictionary(Dictionary dictionary) {
    Object[] values = new Object[dictionary.getMaxId() + 1];
    for (int id = 0; id < values.length; id++) {
      values[id] = fromDictionary(dictionary, id);
    }
    this.dictionary = values;
  }

  @Override
  public void addValueFromDictionary(int dictionaryId) {
    value = dictionary[dictionaryId];
  }

  private static final class Strings extends ParquetValue {
    @Override
    public void addBinary(Binary binary) {
      value = StringData.fromBytes(binary.getBytes());
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return StringData.fromBytes(dictionary.decodeToBinary(id).getBytes());
    }
  }

  private static final class Binaries extends ParquetValue {
    @Override
    public boolean hasDictionarySupport() {
      return false;
    }

    @Override
    public void addBinary(Binary binary) {
      value = binary.getBytes();
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      throw new UnsupportedOperationException("binary values are copied per row");
    }
  }

  private static final class Longs extends ParquetValue {
    @Override
    public void addLong(long v) {
      value = v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return dictionary.decodeToLong(id);
    }
  }

  /** A column widened from INT to BIGINT (Delta's type widening): older files hold INT32. */
  private static final class LongsFromInts extends ParquetValue {
    @Override
    public void addInt(int v) {
      value = (long) v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return (long) dictionary.decodeToInt(id);
    }
  }

  private static final class Ints extends ParquetValue {
    @Override
    public void addInt(int v) {
      value = v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return dictionary.decodeToInt(id);
    }
  }

  private static final class Shorts extends ParquetValue {
    @Override
    public void addInt(int v) {
      value = (short) v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return (short) dictionary.decodeToInt(id);
    }
  }

  private static final class Bytes extends ParquetValue {
    @Override
    public void addInt(int v) {
      value = (byte) v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return (byte) dictionary.decodeToInt(id);
    }
  }

  private static final class Doubles extends ParquetValue {
    @Override
    public void addDouble(double v) {
      value = v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return dictionary.decodeToDouble(id);
    }
  }

  /** A column widened from FLOAT to DOUBLE: older files hold FLOAT. */
  private static final class DoublesFromFloats extends ParquetValue {
    @Override
    public void addFloat(float v) {
      value = (double) v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return (double) dictionary.decodeToFloat(id);
    }
  }

  private static final class Floats extends ParquetValue {
    @Override
    public void addFloat(float v) {
      value = v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return dictionary.decodeToFloat(id);
    }
  }

  private static final class Booleans extends ParquetValue {
    @Override
    public void addBoolean(boolean v) {
      value = v;
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return dictionary.decodeToBoolean(id);
    }
  }

  /** INT64 timestamps in the file's unit, as Flink's timestamps of Delta's microseconds. */
  private static final class Timestamps extends ParquetValue {
    private final long microsPerUnit;
    private final long unitsPerMicro;

    private Timestamps(long microsPerUnit, long unitsPerMicro) {
      this.microsPerUnit = microsPerUnit;
      this.unitsPerMicro = unitsPerMicro;
    }

    static Timestamps of(TimeUnit unit) {
      return switch (unit) {
        case MILLIS -> new Timestamps(1_000, 1);
        case MICROS -> new Timestamps(1, 1);
        case NANOS -> new Timestamps(1, 1_000);
      };
    }

    private Object convert(long stored) {
      return KernelRows.timestamp(Math.floorDiv(stored, unitsPerMicro) * microsPerUnit);
    }

    @Override
    public void addLong(long v) {
      value = convert(v);
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return convert(dictionary.decodeToLong(id));
    }
  }

  /** Decimals stored as unscaled INT32, INT64 or big-endian two's-complement bytes. */
  private static final class Decimals extends ParquetValue {
    private final PrimitiveTypeName stored;
    private final int precision;
    private final int scale;

    private Decimals(PrimitiveTypeName stored, int precision, int scale) {
      this.stored = stored;
      this.precision = precision;
      this.scale = scale;
    }

    static Decimals of(PrimitiveTypeName stored, int precision, int scale) {
      return switch (stored) {
        case INT32, INT64, BINARY, FIXED_LEN_BYTE_ARRAY -> new Decimals(stored, precision, scale);
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

    @Override
    public void addInt(int v) {
      value = ofUnscaled(v);
    }

    @Override
    public void addLong(long v) {
      value = ofUnscaled(v);
    }

    @Override
    public void addBinary(Binary v) {
      value = ofBytes(v);
    }

    @Override
    Object fromDictionary(Dictionary dictionary, int id) {
      return switch (stored) {
        case INT32 -> ofUnscaled(dictionary.decodeToInt(id));
        case INT64 -> ofUnscaled(dictionary.decodeToLong(id));
        default -> ofBytes(dictionary.decodeToBinary(id));
      };
    }
  }
}
