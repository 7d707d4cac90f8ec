/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The primary key of an upsert table and how a row's key is encoded: a string that is equal for two
 * rows exactly when their key values are, whether the row comes from the stream or from a file of
 * the table (where an integer may be stored wider, or a decimal at a larger scale).
 *
 * <p>The key is the index's key in Flink keyed state, so its encoding is compact: one integer
 * column is its decimal digits, one string column is the string itself; several columns are each
 * prefixed with their length.
 */
@Internal
public final class KeyColumns implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String tableName;
  private final List<String> names;
  private final int[] positions;
  private final LogicalType[] types;

  /**
   * What each column's integer value is multiplied by to read as the table stores it: a date the
   * rows carry (days) is microseconds of its midnight in a timestamp column the table widened it
   * to; 1 otherwise.
   */
  private final long[] scales;

  private transient RowData.FieldGetter[] getters;

  private KeyColumns(
      String tableName, List<String> names, int[] positions, LogicalType[] types, long[] scales) {
    this.tableName = tableName;
    this.names = List.copyOf(names);
    this.positions = positions;
    this.types = types;
    this.scales = scales;
  }

  /**
   * The key {@code columns} of rows of {@code rowType}.
   *
   * @throws IllegalArgumentException naming the table and the column, when a column is missing,
   *     named twice or of a type a key cannot have
   */
  public static KeyColumns of(String tableName, RowType rowType, List<String> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException(
          "The primary key of Delta table " + tableName + " names no column");
    }
    List<String> names = new ArrayList<>();
    int[] positions = new int[columns.size()];
    LogicalType[] types = new LogicalType[columns.size()];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < columns.size(); i++) {
      String column = columns.get(i);
      int position = position(rowType, column);
      if (position < 0) {
        throw new IllegalArgumentException(
            String.format(
                "Primary key column '%s' of Delta table %s is not a column of the rows %s; name a"
                    + " column the rows have",
                column, tableName, rowType.getFieldNames()));
      }
      String name = rowType.getFieldNames().get(position);
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(
            String.format(
                "Primary key column '%s' of Delta table %s is named twice", name, tableName));
      }
      LogicalType type = rowType.getTypeAt(position);
      if (!supported(type.getTypeRoot())) {
        throw new IllegalArgumentException(
            String.format(
                "Primary key column '%s' of Delta table %s has type %s, which a key cannot have;"
                    + " key columns are booleans, integers, decimals, strings, binaries, dates or"
                    + " timestamps",
                name, tableName, type.asSummaryString()));
      }
      names.add(name);
      positions[i] = position;
      types[i] = type;
    }
    long[] scales = new long[types.length];
    java.util.Arrays.fill(scales, 1);
    return new KeyColumns(tableName, names, positions, types, scales);
  }

  /**
   * These key columns as the table of {@code schema} stores them: a key read from the stream's rows
   * then equals the key of the same row read from a file of the table, where the table widened a
   * column's type (a date into a timestamp).
   *
   * @throws IllegalArgumentException naming the table and the column, when the table stores a key
   *     column in a type a key cannot have (an integer widened into a double, say)
   */
  public KeyColumns forTable(StructType schema) {
    long[] tableScales = scales.clone();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      DataType tableType = null;
      for (StructField field : schema.fields()) {
        if (field.getName().equalsIgnoreCase(names.get(i))) {
          tableType = field.getDataType();
        }
      }
      if (tableType == null) {
        continue; // the schema check names the missing column
      }
      if (!KEY_TYPES.contains(tableType.getClass())) {
        problems.add(
            String.format(
                "primary key column '%s' is %s in Delta table %s, which a key cannot have (the"
                    + " table widened it); key columns are booleans, integers, decimals, strings,"
                    + " binaries, dates or timestamps. Key the sink by other columns, or write to"
                    + " another table",
                names.get(i), tableType, tableName));
      } else if (types[i].getTypeRoot() == LogicalTypeRoot.DATE
          && (tableType instanceof TimestampType || tableType instanceof TimestampNTZType)) {
        tableScales[i] = MICROS_PER_DAY;
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return new KeyColumns(tableName, names, positions, types, tableScales);
  }

  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private static final Set<Class<? extends DataType>> KEY_TYPES =
      Set.of(
          BooleanType.class,
          ByteType.class,
          ShortType.class,
          IntegerType.class,
          LongType.class,
          DecimalType.class,
          StringType.class,
          BinaryType.class,
          DateType.class,
          TimestampType.class,
          TimestampNTZType.class);

  /** The key columns' names, as the rows name them. */
  public List<String> names() {
    return names;
  }

  /** The positions of the key columns in the rows. */
  public int[] positions() {
    return positions.clone();
  }

  /**
   * The key of {@code row}.
   *
   * @throws IllegalArgumentException when a key column is null, naming the table and the column
   */
  public String keyOf(RowData row) {
    if (getters == null) {
      RowData.FieldGetter[] made = new RowData.FieldGetter[positions.length];
      for (int i = 0; i < made.length; i++) {
        made[i] = RowData.createFieldGetter(types[i].copy(true), positions[i]);
      }
      getters = made;
    }
    if (getters.length == 1) {
      return text(0, getters[0].getFieldOrNull(row), scales[0]);
    }
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < getters.length; i++) {
      append(key, text(i, getters[i].getFieldOrNull(row), scales[i]));
    }
    return key.toString();
  }

  /**
   * The key of row {@code rowId} of a table's columns as Kernel reads them, {@code vectors} holding
   * the key columns in key order.
   */
  public String keyOf(ColumnVector[] vectors, int rowId) {
    if (vectors.length == 1) {
      return text(0, kernelValue(vectors[0], rowId), 1);
    }
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < vectors.length; i++) {
      append(key, text(i, kernelValue(vectors[i], rowId), 1));
    }
    return key.toString();
  }

  private static void append(StringBuilder key, String part) {
    key.append(part.length()).append(':').append(part);
  }

  /**
   * One key value as text; values of the same column and equal meaning give equal text. An integer
   * value is multiplied by {@code scale} first.
   */
  private String text(int column, Object value, long scale) {
    if (value == null) {
      throw new IllegalArgumentException(
          String.format(
              "Primary key column '%s' of Delta table %s is null in a row; key columns must hold"
                  + " a value in every row",
              names.get(column), tableName));
    }
    if (value instanceof Boolean b) {
      return b ? "t" : "f";
    } else if (value instanceof Number n && !(value instanceof BigDecimal)) {
      return Long.toString(Math.multiplyExact(n.longValue(), scale));
    } else if (value instanceof BigDecimal d) {
      return d.stripTrailingZeros().toPlainString();
    } else if (value instanceof DecimalData d) {
      return d.toBigDecimal().stripTrailingZeros().toPlainString();
    } else if (value instanceof TimestampData t) {
      // Delta keeps microseconds.
      return Long.toString(
          Math.addExact(
              Math.multiplyExact(t.getMillisecond(), 1000L), t.getNanoOfMillisecond() / 1000));
    } else if (value instanceof byte[] bytes) {
      return Base64.getEncoder().withoutPadding().encodeToString(bytes);
    }
    return value.toString(); // StringData and String
  }

  private static Object kernelValue(ColumnVector vector, int rowId) {
    if (vector.isNullAt(rowId)) {
      return null;
    }
    DataType type = vector.getDataType();
    if (type instanceof BooleanType) {
      return vector.getBoolean(rowId);
    } else if (type instanceof ByteType) {
      return (long) vector.getByte(rowId);
    } else if (type instanceof ShortType) {
      return (long) vector.getShort(rowId);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return (long) vector.getInt(rowId);
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return vector.getLong(rowId);
    } else if (type instanceof DecimalType) {
      return vector.getDecimal(rowId);
    } else if (type instanceof StringType) {
      return vector.getString(rowId);
    } else if (type instanceof BinaryType) {
      return vector.getBinary(rowId);
    }
    throw new IllegalStateException("Not a key type: " + type);
  }

  private static boolean supported(LogicalTypeRoot root) {
    return switch (root) {
      case BOOLEAN,
          TINYINT,
          SMALLINT,
          INTEGER,
          BIGINT,
          DECIMAL,
          CHAR,
          VARCHAR,
          BINARY,
          VARBINARY,
          DATE,
          TIMESTAMP_WITHOUT_TIME_ZONE,
          TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          true;
      default -> false;
    };
  }

  private static int position(RowType rowType, String column) {
    List<String> fields = rowType.getFieldNames();
    int exact = fields.indexOf(column);
    if (exact >= 0) {
      return exact;
    }
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).equalsIgnoreCase(column)) {
        return i;
      }
    }
    return -1;
  }
}
