/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.delta.kernel.expressions.Literal;
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
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/** Turns partition values in Delta's string form back into typed Kernel literals. */
@Internal
public final class PartitionLiterals {

  private PartitionLiterals() {}

  public static Map<String, Literal> of(Map<String, String> values, StructType schema) {
    Map<String, Literal> literals = new HashMap<>();
    for (Map.Entry<String, String> entry : values.entrySet()) {
      DataType type = schema.get(entry.getKey()).getDataType();
      literals.put(entry.getKey(), literal(type, entry.getValue()));
    }
    return literals;
  }

  /** The literal of {@code type} that {@code value}, a partition value as Delta writes it, is. */
  public static Literal literal(DataType type, String value) {
    if (value == null) {
      return Literal.ofNull(type);
    } else if (type instanceof StringType) {
      return Literal.ofString(value);
    } else if (type instanceof BooleanType) {
      return Literal.ofBoolean(Boolean.parseBoolean(value));
    } else if (type instanceof ByteType) {
      return Literal.ofByte(Byte.parseByte(value));
    } else if (type instanceof ShortType) {
      return Literal.ofShort(Short.parseShort(value));
    } else if (type instanceof IntegerType) {
      return Literal.ofInt(Integer.parseInt(value));
    } else if (type instanceof LongType) {
      return Literal.ofLong(Long.parseLong(value));
    } else if (type instanceof FloatType) {
      return Literal.ofFloat(Float.parseFloat(value));
    } else if (type instanceof DoubleType) {
      return Literal.ofDouble(Double.parseDouble(value));
    } else if (type instanceof DecimalType decimal) {
      return Literal.ofDecimal(new BigDecimal(value), decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof DateType) {
      return Literal.ofDate((int) LocalDate.parse(value).toEpochDay());
    } else if (type instanceof TimestampType) {
      Instant instant =
          LocalDateTime.parse(value, PartitionValues.TIMESTAMP).toInstant(ZoneOffset.UTC);
      return Literal.ofTimestamp(micros(instant));
    } else if (type instanceof TimestampNTZType) {
      Instant instant =
          LocalDateTime.parse(value, PartitionValues.TIMESTAMP_NTZ).toInstant(ZoneOffset.UTC);
      return Literal.ofTimestampNtz(micros(instant));
    } else if (type instanceof BinaryType) {
      return Literal.ofBinary(value.getBytes(StandardCharsets.UTF_8));
    }
    throw new IllegalArgumentException("type " + type + " cannot be a partition column");
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}
