/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import java.math.BigDecimal;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Running Delta statistics of one leaf column of one data file: its null count and, for ordered
 * types, its minimum and maximum. Values are offered as they are written, so statistics cost no
 * second pass over the data; string ranges come from parquet-java's statistics of the same file.
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

  /**
   * Called once the file is complete, before {@link #exportTo}, with the file's footer as
   * parquet-java wrote it; for statistics read from parquet-java's own rather than kept here.
   */
  void complete(ParquetMetadata footer) {}

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
}
