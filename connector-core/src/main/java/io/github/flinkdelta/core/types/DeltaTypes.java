/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.types;

import io.delta.kernel.types.ArrayType;
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
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Maps Flink's logical types onto Delta's types and back.
 *
 * <p>Flink {@code TIMESTAMP(p)} (no time zone) is Delta {@code timestamp_ntz}; Flink {@code
 * TIMESTAMP_LTZ(p)} is Delta {@code timestamp}. Delta stores microseconds, so a precision above 6
 * is truncated to microseconds when written. {@code CHAR} and {@code VARCHAR} become {@code
 * string}, {@code BINARY} and {@code VARBINARY} become {@code binary}: Delta has no length limits.
 */
@Internal
public final class DeltaTypes {

  /** The largest decimal precision Delta can hold. */
  public static final int MAX_DECIMAL_PRECISION = 38;

  private DeltaTypes() {}

  /**
   * Converts a Flink row type into a Delta schema.
   *
   * @throws UnsupportedColumnTypeException naming every column whose type Delta cannot hold
   */
  public static StructType toDeltaSchema(RowType rowType) {
    List<String> problems = new ArrayList<>();
    StructType schema = toStruct(rowType, "", problems);
    if (!problems.isEmpty()) {
      throw new UnsupportedColumnTypeException(problems);
    }
    return schema;
  }

  /**
   * Converts one Flink type, of a column or below one, into the Delta type that holds it.
   *
   * @throws UnsupportedColumnTypeException when Delta cannot hold it
   */
  public static DataType toDeltaType(LogicalType type) {
    List<String> problems = new ArrayList<>();
    DataType converted = toDelta(type, "value", problems);
    if (!problems.isEmpty()) {
      throw new UnsupportedColumnTypeException(problems);
    }
    return converted;
  }

  /**
   * Converts a Delta schema into the Flink row type that writes it.
   *
   * @throws UnsupportedColumnTypeException naming every column whose type Flink cannot write
   */
  public static RowType toFlinkRowType(StructType schema) {
    List<String> problems = new ArrayList<>();
    RowType rowType = toRow(schema, "", problems);
    if (!problems.isEmpty()) {
      throw new UnsupportedColumnTypeException(problems);
    }
    return rowType;
  }

  private static StructType toStruct(RowType rowType, String prefix, List<String> problems) {
    List<StructField> fields = new ArrayList<>(rowType.getFieldCount());
    for (RowType.RowField field : rowType.getFields()) {
      String path = prefix + field.getName();
      DataType type = toDelta(field.getType(), path, problems);
      fields.add(new StructField(field.getName(), type, field.getType().isNullable()));
    }
    return new StructType(fields);
  }

  private static DataType toDelta(LogicalType type, String path, List<String> problems) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return BooleanType.BOOLEAN;
      case TINYINT:
        return ByteType.BYTE;
      case SMALLINT:
        return ShortType.SHORT;
      case INTEGER:
        return IntegerType.INTEGER;
      case BIGINT:
        return LongType.LONG;
      case FLOAT:
        return FloatType.FLOAT;
      case DOUBLE:
        return DoubleType.DOUBLE;
      case DECIMAL:
        org.apache.flink.table.types.logical.DecimalType decimal =
            (org.apache.flink.table.types.logical.DecimalType) type;
        return new DecimalType(decimal.getPrecision(), decimal.getScale());
      case CHAR:
      case VARCHAR:
        return StringType.STRING;
      case BINARY:
      case VARBINARY:
        return BinaryType.BINARY;
      case DATE:
        return DateType.DATE;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return TimestampNTZType.TIMESTAMP_NTZ;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return TimestampType.TIMESTAMP;
      case ARRAY:
        LogicalType element =
            ((org.apache.flink.table.types.logical.ArrayType) type).getElementType();
        return new ArrayType(toDelta(element, path + ".element", problems), element.isNullable());
      case MAP:
        org.apache.flink.table.types.logical.MapType map =
            (org.apache.flink.table.types.logical.MapType) type;
        // Delta map keys are never null, while Flink marks them nullable by default: the writer
        // rejects a null key, naming the column.
        return new MapType(
            toDelta(map.getKeyType(), path + ".key", problems),
            toDelta(map.getValueType(), path + ".value", problems),
            map.getValueType().isNullable());
      case ROW:
        return toStruct((RowType) type, path + ".", problems);
      default:
        problems.add(
            String.format(
                "column '%s' has type %s, which Delta cannot store", path, type.asSummaryString()));
        // A placeholder keeps the walk going so that every bad column is reported at once.
        return StringType.STRING;
    }
  }

  private static RowType toRow(StructType schema, String prefix, List<String> problems) {
    List<RowType.RowField> fields = new ArrayList<>(schema.length());
    for (StructField field : schema.fields()) {
      String path = prefix + field.getName();
      LogicalType type = toFlink(field.getDataType(), path, problems).copy(field.isNullable());
      fields.add(new RowType.RowField(field.getName(), type));
    }
    return new RowType(fields);
  }

  private static LogicalType toFlink(DataType type, String path, List<String> problems) {
    if (type instanceof BooleanType) {
      return new org.apache.flink.table.types.logical.BooleanType();
    } else if (type instanceof ByteType) {
      return new TinyIntType();
    } else if (type instanceof ShortType) {
      return new SmallIntType();
    } else if (type instanceof IntegerType) {
      return new org.apache.flink.table.types.logical.IntType();
    } else if (type instanceof LongType) {
      return new BigIntType();
    } else if (type instanceof FloatType) {
      return new org.apache.flink.table.types.logical.FloatType();
    } else if (type instanceof DoubleType) {
      return new org.apache.flink.table.types.logical.DoubleType();
    } else if (type instanceof DecimalType decimal) {
      return new org.apache.flink.table.types.logical.DecimalType(
          decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof StringType) {
      return VarCharType.STRING_TYPE;
    } else if (type instanceof BinaryType) {
      return new VarBinaryType(VarBinaryType.MAX_LENGTH);
    } else if (type instanceof DateType) {
      return new org.apache.flink.table.types.logical.DateType();
    } else if (type instanceof TimestampNTZType) {
      return new org.apache.flink.table.types.logical.TimestampType(6);
    } else if (type instanceof TimestampType) {
      return new LocalZonedTimestampType(6);
    } else if (type instanceof ArrayType array) {
      return new org.apache.flink.table.types.logical.ArrayType(
          toFlink(array.getElementType(), path + ".element", problems).copy(array.containsNull()));
    } else if (type instanceof MapType map) {
      return new org.apache.flink.table.types.logical.MapType(
          toFlink(map.getKeyType(), path + ".key", problems).copy(false),
          toFlink(map.getValueType(), path + ".value", problems)
              .copy(map.getValueField().isNullable()));
    } else if (type instanceof StructType struct) {
      return toRow(struct, path + ".", problems);
    }
    problems.add(
        String.format("column '%s' has Delta type %s, which this sink cannot write", path, type));
    return VarCharType.STRING_TYPE;
  }
}
