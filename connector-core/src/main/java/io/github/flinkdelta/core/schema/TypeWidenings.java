/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.TimestampNTZType;
import org.apache.flink.annotation.Internal;

/**
 * The type changes of Delta's {@code typeWidening} table feature: each value of the narrower type
 * has exactly one value of the wider type, and files written with the narrower type stay readable
 * as the wider one.
 */
@Internal
public final class TypeWidenings {

  /** Digits an integer type may need, as Delta counts them when it widens to a decimal. */
  private static final int INT_DIGITS = 10;

  private static final int LONG_DIGITS = 20;

  private TypeWidenings() {}

  /** Whether {@code to} is {@code from} or a type Delta widens {@code from} to. */
  public static boolean widensTo(DataType from, DataType to) {
    if (from.equivalent(to)) {
      return true;
    }
    int fromRank = integerRank(from);
    if (fromRank > 0) {
      int toRank = integerRank(to);
      if (toRank > 0) {
        return toRank > fromRank;
      }
      if (to instanceof DoubleType) {
        return !(from instanceof LongType);
      }
      if (to instanceof DecimalType decimal) {
        return holdsDigits(decimal, from instanceof LongType ? LONG_DIGITS : INT_DIGITS, 0);
      }
      return false;
    }
    if (from instanceof FloatType) {
      return to instanceof DoubleType;
    }
    if (from instanceof DateType) {
      return to instanceof TimestampNTZType;
    }
    if (from instanceof DecimalType narrow && to instanceof DecimalType wide) {
      return holdsDigits(wide, narrow.getPrecision(), narrow.getScale());
    }
    return false;
  }

  /** A decimal keeps every integer digit and every fraction digit of (precision, scale). */
  private static boolean holdsDigits(DecimalType decimal, int precision, int scale) {
    int moreScale = decimal.getScale() - scale;
    int morePrecision = decimal.getPrecision() - precision;
    return moreScale >= 0 && morePrecision >= moreScale;
  }

  /** Whether {@code type} is one of Delta's integer types. */
  static boolean isInteger(DataType type) {
    return integerRank(type) > 0;
  }

  private static int integerRank(DataType type) {
    if (type instanceof ByteType) {
      return 1;
    } else if (type instanceof ShortType) {
      return 2;
    } else if (type instanceof IntegerType) {
      return 3;
    } else if (type instanceof LongType) {
      return 4;
    }
    return 0;
  }
}
