/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;

/**
 * Reads one top-level column's values in Flink's form, the conversion chosen once per column rather
 * than per value. Top-level string columns are read from Parquet as binary ({@link #readSchema}),
 * so that their UTF-8 bytes become {@link StringData} as they are, never decoded into a {@code
 * String} and encoded again.
 */
@FunctionalInterface
interface ColumnValues {

  /** The value at {@code rowId}, or null. */
  Object read(ColumnVector vector, int rowId);

  /** The reader of a top-level column of {@code type}, read through {@link #readSchema}. */
  static ColumnValues of(DataType type) {
    if (type instanceof StringType) {
      return (v, r) -> v.isNullAt(r) ? null : StringData.fromBytes(v.getBinary(r));
    } else if (type instanceof LongType) {
      return (v, r) -> v.isNullAt(r) ? null : v.getLong(r);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (v, r) -> v.isNullAt(r) ? null : v.getInt(r);
    } else if (type instanceof DoubleType) {
      return (v, r) -> v.isNullAt(r) ? null : v.getDouble(r);
    } else if (type instanceof FloatType) {
      return (v, r) -> v.isNullAt(r) ? null : v.getFloat(r);
    } else if (type instanceof BooleanType) {
      return (v, r) -> v.isNullAt(r) ? null : v.getBoolean(r);
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return (v, r) -> v.isNullAt(r) ? null : KernelRows.timestamp(v.getLong(r));
    } else if (type instanceof DecimalType decimal) {
      int precision = decimal.getPrecision();
      int scale = decimal.getScale();
      return (v, r) ->
          v.isNullAt(r) ? null : DecimalData.fromBigDecimal(v.getDecimal(r), precision, scale);
    }
    return (v, r) -> KernelRows.value(v, r, type);
  }

  /** {@code physical} with its top-level string columns read as binary. */
  static StructType readSchema(StructType physical) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : physical.fields()) {
      fields.add(
          field.getDataType() instanceof StringType
              ? new StructField(
                  field.getName(), BinaryType.BINARY, field.isNullable(), field.getMetadata())
              : field);
    }
    return new StructType(fields);
  }
}
