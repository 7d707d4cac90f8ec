/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Expression;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.expressions.Predicate;
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
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * A filter on a table's top-level columns, in a form that travels with a source to its enumerator
 * and readers (Kernel's predicates are not serializable): comparisons of a column with a value,
 * null tests, and their conjunctions, disjunctions and negations. Values are in Kernel's form
 * (dates as days, timestamps as microseconds, decimals as {@link BigDecimal}) and take the column's
 * type when the filter meets the table.
 */
@Internal
public sealed interface ReadFilter extends Serializable {

  /** The comparisons a filter may make, by Kernel's names. */
  Set<String> COMPARISONS = Set.of("=", "<", "<=", ">", ">=");

  /** {@code column op value}, where {@code op} is one of {@link #COMPARISONS}. */
  record Compare(String column, String op, Serializable value) implements ReadFilter {
    public Compare {
      if (!COMPARISONS.contains(op)) {
        throw new IllegalArgumentException("not a comparison: " + op);
      }
      if (value == null) {
        throw new IllegalArgumentException("a comparison with null holds for no row");
      }
    }

    @Override
    public Set<String> columns() {
      return Set.of(column);
    }

    @Override
    public Predicate toKernel(StructType schema) {
      return new Predicate(op, new Column(column), literal(value, type(schema, column)));
    }
  }

  /** {@code column IS NULL}. */
  record IsNull(String column) implements ReadFilter {
    @Override
    public Set<String> columns() {
      return Set.of(column);
    }

    @Override
    public Predicate toKernel(StructType schema) {
      return new Predicate("IS_NULL", new Column(column));
    }
  }

  /** {@code NOT filter}. */
  record Not(ReadFilter filter) implements ReadFilter {
    @Override
    public Set<String> columns() {
      return filter.columns();
    }

    @Override
    public Predicate toKernel(StructType schema) {
      return new Predicate("NOT", filter.toKernel(schema));
    }
  }

  /** {@code left AND right}. */
  record And(ReadFilter left, ReadFilter right) implements ReadFilter {
    @Override
    public Set<String> columns() {
      return union(left.columns(), right.columns());
    }

    @Override
    public Predicate toKernel(StructType schema) {
      return new Predicate("AND", left.toKernel(schema), right.toKernel(schema));
    }
  }

  /** {@code left OR right}. */
  record Or(ReadFilter left, ReadFilter right) implements ReadFilter {
    @Override
    public Set<String> columns() {
      return union(left.columns(), right.columns());
    }

    @Override
    public Predicate toKernel(StructType schema) {
      return new Predicate("OR", left.toKernel(schema), right.toKernel(schema));
    }
  }

  /** The column names this filter reads. */
  Set<String> columns();

  /** This filter as a Kernel predicate over {@code schema}, each value of its column's type. */
  Predicate toKernel(StructType schema);

  /**
   * The filter {@code predicate} describes.
   *
   * @throws IllegalArgumentException when it uses anything but top-level columns, literals, the
   *     comparisons, {@code IS_NULL}, {@code IS_NOT_NULL}, {@code AND}, {@code OR} and {@code NOT}
   */
  static ReadFilter of(Predicate predicate) {
    List<Expression> args = predicate.getChildren();
    String name = predicate.getName().toUpperCase(Locale.ROOT);
    switch (name) {
      case "AND":
        return new And(of(predicate(args.get(0))), of(predicate(args.get(1))));
      case "OR":
        return new Or(of(predicate(args.get(0))), of(predicate(args.get(1))));
      case "NOT":
        return new Not(of(predicate(args.get(0))));
      case "IS_NULL":
        return new IsNull(column(args.get(0)));
      case "IS_NOT_NULL":
        return new Not(new IsNull(column(args.get(0))));
      default:
        if (!COMPARISONS.contains(name) || args.size() != 2) {
          throw new IllegalArgumentException(
              "The Delta source filters by comparisons (=, <, <=, >, >=), IS_NULL, IS_NOT_NULL,"
                  + " AND, OR and NOT of columns and literals, not by "
                  + predicate);
        }
        if (args.get(0) instanceof Literal && args.get(1) instanceof Column) {
          return new Compare(column(args.get(1)), mirrored(name), value(args.get(0)));
        }
        return new Compare(column(args.get(0)), name, value(args.get(1)));
    }
  }

  /** {@code value} as a Kernel literal of {@code type}. */
  static Literal literal(Object value, DataType type) {
    if (type instanceof StringType) {
      return Literal.ofString(value.toString());
    } else if (type instanceof BooleanType) {
      return Literal.ofBoolean((Boolean) value);
    } else if (type instanceof ByteType) {
      return Literal.ofByte(((Number) value).byteValue());
    } else if (type instanceof ShortType) {
      return Literal.ofShort(((Number) value).shortValue());
    } else if (type instanceof IntegerType) {
      return Literal.ofInt(((Number) value).intValue());
    } else if (type instanceof LongType) {
      return Literal.ofLong(((Number) value).longValue());
    } else if (type instanceof FloatType) {
      return Literal.ofFloat(((Number) value).floatValue());
    } else if (type instanceof DoubleType) {
      return Literal.ofDouble(((Number) value).doubleValue());
    } else if (type instanceof DateType) {
      return Literal.ofDate(((Number) value).intValue());
    } else if (type instanceof TimestampType) {
      return Literal.ofTimestamp(((Number) value).longValue());
    } else if (type instanceof TimestampNTZType) {
      return Literal.ofTimestampNtz(((Number) value).longValue());
    } else if (type instanceof DecimalType decimal) {
      BigDecimal number = value instanceof BigDecimal big ? big : new BigDecimal(value.toString());
      return Literal.ofDecimal(
          number.setScale(decimal.getScale(), RoundingMode.UNNECESSARY),
          decimal.getPrecision(),
          decimal.getScale());
    } else if (type instanceof BinaryType) {
      return Literal.ofBinary((byte[]) value);
    }
    throw new IllegalArgumentException("The Delta source cannot filter a column of type " + type);
  }

  private static DataType type(StructType schema, String column) {
    for (StructField field : schema.fields()) {
      if (field.getName().equalsIgnoreCase(column)) {
        return field.getDataType();
      }
    }
    throw new IllegalArgumentException(
        "The filter names column '" + column + "', which the table does not have");
  }

  private static Predicate predicate(Expression expression) {
    if (expression instanceof Predicate predicate) {
      return predicate;
    }
    throw new IllegalArgumentException("not a predicate: " + expression);
  }

  private static String column(Expression expression) {
    if (expression instanceof Column column && column.getNames().length == 1) {
      return column.getNames()[0];
    }
    throw new IllegalArgumentException(
        "The Delta source filters by top-level columns, not by " + expression);
  }

  private static Serializable value(Expression expression) {
    if (expression instanceof Literal literal && literal.getValue() instanceof Serializable value) {
      return value;
    }
    throw new IllegalArgumentException("not a non-null literal: " + expression);
  }

  private static String mirrored(String op) {
    return switch (op) {
      case "<" -> ">";
      case "<=" -> ">=";
      case ">" -> "<";
      case ">=" -> "<=";
      default -> op;
    };
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return Set.copyOf(all);
  }
}
