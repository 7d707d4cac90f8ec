package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Running Delta statistics of one leaf column of one data file: its null count and, for ordered
 * types, its minimum and maximum. Values are offered as they are written, so statistics cost no
 * second pass over the data.
 */
abstract class ColumnStats {

  private final Column column;
  private long nullCount;

  ColumnStats(Column column) {
    this.column = column;
  }

  final void addNull() {
    nullCount++;
  }

  /** Adds this column's entries to the statistics maps; min/max only when a value was seen. */
  final void exportTo(
      Map<Column, Literal> minValues, Map<Column, Literal> maxValues, Map<Column, Long> nulls) {
    nulls.put(column, nullCount);
    if (hasRange()) {
      minValues.put(column, min());
      maxValues.put(column, max());
    }
  }

  abstract boolean hasRange();

  abstract Literal min();

  abstract Literal max();

  /** Columns whose min/max Delta does not record (booleans, binaries, arrays, maps). */
  static final class NullsOnly extends ColumnStats {
    NullsOnly(Column column) {
      super(column);
    }

    @Override
    boolean hasRange() {
      return false;
    }

    @Override
    Literal min() {
      throw new UnsupportedOperationException();
    }

    @Override
    Literal max() {
      throw new UnsupportedOperationException();
    }
  }

  /** INT, SMALLINT, TINYINT and DATE: all held as a Java int. */
  static final class IntStats extends ColumnStats {
    enum Kind {
      BYTE,
      SHORT,
      INT,
      DATE
    }

    private final Kind kind;
    private boolean seen;
    private int min;
    private int max;

    IntStats(Column column, Kind kind) {
      super(column);
      this.kind = kind;
    }

    void add(int value) {
      if (!seen) {
        min = max = value;
        seen = true;
      } else if (value < min) {
        min = value;
      } else if (value > max) {
        max = value;
      }
    }

    @Override
    boolean hasRange() {
      return seen;
    }

    @Override
    Literal min() {
      return literal(min);
    }

    @Override
    Literal max() {
      return literal(max);
    }

    private Literal literal(int value) {
      return switch (kind) {
        case BYTE -> Literal.ofByte((byte) value);
        case SHORT -> Literal.ofShort((short) value);
        case INT -> Literal.ofInt(value);
        case DATE -> Literal.ofDate(value);
      };
    }
  }

  /** BIGINT and the timestamps, held as a Java long (microseconds for timestamps). */
  static final class LongStats extends ColumnStats {
    enum Kind {
      LONG,
      TIMESTAMP,
      TIMESTAMP_NTZ
    }

    private final Kind kind;
    private boolean seen;
    private long min;
    private long max;

    LongStats(Column column, Kind kind) {
      super(column);
      this.kind = kind;
    }

    void add(long value) {
      if (!seen) {
        min = max = value;
        seen = true;
      } else if (value < min) {
        min = value;
      } else if (value > max) {
        max = value;
      }
    }

    @Override
    boolean hasRange() {
      return seen;
    }

    @Override
    Literal min() {
      return literal(min);
    }

    @Override
    Literal max() {
      return literal(max);
    }

    private Literal literal(long value) {
      return switch (kind) {
        case LONG -> Literal.ofLong(value);
        case TIMESTAMP -> Literal.ofTimestamp(value);
        case TIMESTAMP_NTZ -> Literal.ofTimestampNtz(value);
      };
    }
  }

  /**
   * FLOAT and DOUBLE, held as a double. NaN sorts above every other value, as it does in Delta's
   * reference implementation: a file holding a NaN has NaN as its maximum, and NaN as its minimum
   * only when it holds nothing else.
   */
  static final class DoubleStats extends ColumnStats {
    private final boolean isFloat;
    private boolean seen;
    private double min;
    private double max;

    DoubleStats(Column column, boolean isFloat) {
      super(column);
      this.isFloat = isFloat;
    }

    void add(double value) {
      if (!seen) {
        min = max = value;
        seen = true;
        return;
      }
      // Double.compare orders NaN above +Infinity, which is the order Delta's statistics use.
      if (Double.compare(value, min) < 0) {
        min = value;
      }
      if (Double.compare(value, max) > 0) {
        max = value;
      }
    }

    @Override
    boolean hasRange() {
      return seen;
    }

    @Override
    Literal min() {
      return literal(min);
    }

    @Override
    Literal max() {
      return literal(max);
    }

    private Literal literal(double value) {
      return isFloat ? Literal.ofFloat((float) value) : Literal.ofDouble(value);
    }
  }

  /** DECIMAL: compact decimals compare their unscaled longs; wide ones compare BigDecimals. */
  static final class DecimalStats extends ColumnStats {
    private final int precision;
    private final int scale;
    private boolean seen;
    private long minUnscaled;
    private long maxUnscaled;
    private BigDecimal minWide;
    private BigDecimal maxWide;

    DecimalStats(Column column, int precision, int scale) {
      super(column);
      this.precision = precision;
      this.scale = scale;
    }

    void addUnscaled(long unscaled) {
      if (!seen) {
        minUnscaled = maxUnscaled = unscaled;
        seen = true;
      } else if (unscaled < minUnscaled) {
        minUnscaled = unscaled;
      } else if (unscaled > maxUnscaled) {
        maxUnscaled = unscaled;
      }
    }

    void addWide(BigDecimal value) {
      if (!seen) {
        minWide = maxWide = value;
        seen = true;
      } else if (value.compareTo(minWide) < 0) {
        minWide = value;
      } else if (value.compareTo(maxWide) > 0) {
        maxWide = value;
      }
    }

    @Override
    boolean hasRange() {
      return seen;
    }

    @Override
    Literal min() {
      return Literal.ofDecimal(
          minWide != null ? minWide : BigDecimal.valueOf(minUnscaled, scale), precision, scale);
    }

    @Override
    Literal max() {
      return Literal.ofDecimal(
          maxWide != null ? maxWide : BigDecimal.valueOf(maxUnscaled, scale), precision, scale);
    }
  }

  /**
   * STRING: keeps only a prefix of the smallest and largest value, in UTF-8 byte order (the order
   * of Unicode code points, which Delta uses). A maximum cut short gets U+10FFFF appended, so it
   * stays at or above every value that shares its prefix; a minimum cut short is a lower bound as
   * it is.
   */
  static final class StringStats extends ColumnStats {
    private static final byte[] MAX_CODE_POINT =
        new String(Character.toChars(Character.MAX_CODE_POINT)).getBytes(StandardCharsets.UTF_8);

    private final int prefixChars;
    private byte[] min;
    private byte[] max;
    private boolean maxTruncated;

    StringStats(Column column, int prefixChars) {
      super(column);
      this.prefixChars = prefixChars;
    }

    void add(byte[] bytes, int offset, int length) {
      if (min == null) {
        min = prefix(bytes, offset, length);
        max = prefix(bytes, offset, length);
        maxTruncated = max.length < length;
        return;
      }
      // Comparing against the kept prefix is exact enough: a value below the kept minimum
      // prefix has a prefix no larger than it, and a value between the prefix and the true
      // minimum has the same prefix, so the kept prefix stays right.
      if (compare(bytes, offset, length, min) < 0) {
        min = prefix(bytes, offset, length);
      }
      if (compare(bytes, offset, length, max) > 0) {
        if (maxTruncated && startsWith(bytes, offset, length, max)) {
          // A cut maximum holds all its prefix's code points, so a value extending it has the
          // same prefix and leaves the maximum as it is. Values sharing a long prefix (URLs,
          // user agents) end here instead of cutting a new copy each.
          return;
        }
        byte[] candidate = prefix(bytes, offset, length);
        boolean truncated = candidate.length < length;
        if (Arrays.equals(candidate, max)) {
          maxTruncated |= truncated;
        } else {
          max = candidate;
          maxTruncated = truncated;
        }
      }
    }

    @Override
    boolean hasRange() {
      return min != null;
    }

    @Override
    Literal min() {
      return Literal.ofString(new String(min, StandardCharsets.UTF_8));
    }

    @Override
    Literal max() {
      String prefix = new String(max, StandardCharsets.UTF_8);
      return Literal.ofString(
          maxTruncated ? prefix + new String(MAX_CODE_POINT, StandardCharsets.UTF_8) : prefix);
    }

    /** The first {@code prefixChars} code points of a UTF-8 string. */
    private byte[] prefix(byte[] bytes, int offset, int length) {
      int end = offset;
      int limit = offset + length;
      for (int chars = 0; chars < prefixChars && end < limit; chars++) {
        end += utf8SequenceLength(bytes[end]);
      }
      return Arrays.copyOfRange(bytes, offset, Math.min(end, limit));
    }

    private static int utf8SequenceLength(byte lead) {
      int b = lead & 0xFF;
      if (b < 0x80) {
        return 1;
      } else if (b < 0xE0) {
        return 2;
      } else if (b < 0xF0) {
        return 3;
      }
      return 4;
    }

    private static boolean startsWith(byte[] bytes, int offset, int length, byte[] prefix) {
      return length >= prefix.length
          && Arrays.equals(bytes, offset, offset + prefix.length, prefix, 0, prefix.length);
    }

    private static int compare(byte[] bytes, int offset, int length, byte[] other) {
      return Arrays.compareUnsigned(bytes, offset, offset + length, other, 0, other.length);
    }
  }
}
