/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.core.read.ReadFilter;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;

/**
 * Flink SQL filters as {@link ReadFilter}s, for the Delta source to skip files by: comparisons of a
 * column with a literal, null tests, and {@code AND}, {@code OR} and {@code NOT} of those. Any
 * other filter is left to Flink.
 */
final class FilterConversion {

  private static final Map<FunctionDefinition, String> COMPARISONS =
      Map.of(
          BuiltInFunctionDefinitions.EQUALS, "=",
          BuiltInFunctionDefinitions.LESS_THAN, "<",
          BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, "<=",
          BuiltInFunctionDefinitions.GREATER_THAN, ">",
          BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, ">=");

  private static final Map<String, String> MIRRORED =
      Map.of("=", "=", "<", ">", "<=", ">=", ">", "<", ">=", "<=");

  private FilterConversion() {}

  /** {@code expression} as a filter, or empty when the source cannot filter by it. */
  static Optional<ReadFilter> of(ResolvedExpression expression) {
    if (!(expression instanceof CallExpression call)) {
      return Optional.empty();
    }
    FunctionDefinition function = call.getFunctionDefinition();
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (function == BuiltInFunctionDefinitions.AND || function == BuiltInFunctionDefinitions.OR) {
      Optional<ReadFilter> filter = of(args.get(0));
      for (int i = 1; i < args.size() && filter.isPresent(); i++) {
        Optional<ReadFilter> next = of(args.get(i));
        filter =
            next.isEmpty()
                ? Optional.empty()
                : Optional.of(
                    function == BuiltInFunctionDefinitions.AND
                        ? new ReadFilter.And(filter.get(), next.get())
                        : new ReadFilter.Or(filter.get(), next.get()));
      }
      return filter;
    } else if (function == BuiltInFunctionDefinitions.NOT) {
      return of(args.get(0)).map(ReadFilter.Not::new);
    } else if (function == BuiltInFunctionDefinitions.IS_NULL) {
      return column(args.get(0)).map(ReadFilter.IsNull::new);
    } else if (function == BuiltInFunctionDefinitions.IS_NOT_NULL) {
      return column(args.get(0)).map(c -> new ReadFilter.Not(new ReadFilter.IsNull(c)));
    } else if (function == BuiltInFunctionDefinitions.NOT_EQUALS) {
      return comparison("=", args).map(ReadFilter.Not::new);
    } else if (COMPARISONS.containsKey(function)) {
      return comparison(COMPARISONS.get(function), args);
    }
    return Optional.empty();
  }

  private static Optional<ReadFilter> comparison(String op, List<ResolvedExpression> args) {
    Optional<String> column = column(args.get(0));
    Optional<Serializable> value = value(args.get(1));
    if (column.isPresent() && value.isPresent()) {
      return Optional.of(new ReadFilter.Compare(column.get(), op, value.get()));
    }
    column = column(args.get(1));
    value = value(args.get(0));
    if (column.isPresent() && value.isPresent()) {
      return Optional.of(new ReadFilter.Compare(column.get(), MIRRORED.get(op), value.get()));
    }
    return Optional.empty();
  }

  private static Optional<String> column(ResolvedExpression expression) {
    return expression instanceof FieldReferenceExpression field
        ? Optional.of(field.getName())
        : Optional.empty();
  }

  /** A literal's value in Kernel's form: dates as days, timestamps as UTC microseconds. */
  private static Optional<Serializable> value(ResolvedExpression expression) {
    if (!(expression instanceof ValueLiteralExpression literal) || literal.isNull()) {
      return Optional.empty();
    }
    Optional<?> value =
        literal.getValueAs(literal.getOutputDataType().getConversionClass()).map(v -> (Object) v);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Object v = value.get();
    if (v instanceof LocalDate date) {
      return Optional.of((int) date.toEpochDay());
    } else if (v instanceof LocalDateTime time) {
      return Optional.of(micros(time.toInstant(ZoneOffset.UTC)));
    } else if (v instanceof Instant instant) {
      return Optional.of(micros(instant));
    } else if (v instanceof Number || v instanceof String || v instanceof Boolean) {
      return Optional.of((Serializable) v);
    }
    return Optional.empty();
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}
