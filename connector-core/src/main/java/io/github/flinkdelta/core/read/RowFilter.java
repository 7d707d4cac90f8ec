/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.types.DataType;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

/**
 * A {@link ReadFilter} applied to the rows a reader emits, with SQL's three-valued logic: a
 * comparison with a null value is unknown, and only rows for which the filter is true are kept.
 */
@Internal
public final class RowFilter {

  private interface Test {
    /** True, false, or null for unknown. */
    Boolean test(RowData row);
  }

  private final Test test;

  private RowFilter(Test test) {
    this.test = test;
  }

  /**
   * {@code filter} over rows of {@code columns}.
   *
   * @throws IllegalArgumentException naming a column of the filter that is not read
   */
  public static RowFilter of(ReadFilter filter, ReadColumns columns) {
    return new RowFilter(compile(filter, columns));
  }

  /** Whether {@code row} is kept. */
  public boolean keeps(RowData row) {
    return Boolean.TRUE.equals(test.test(row));
  }

  private static Test compile(ReadFilter filter, ReadColumns columns) {
    if (filter instanceof ReadFilter.Compare compare) {
      return comparison(compare, columns);
    } else if (filter instanceof ReadFilter.IsNull isNull) {
      int index = index(columns, isNull.column());
      return row -> row.isNullAt(index);
    } else if (filter instanceof ReadFilter.Not not) {
      Test inner = compile(not.filter(), columns);
      return row -> {
        Boolean value = inner.test(row);
        return value == null ? null : !value;
      };
    } else if (filter instanceof ReadFilter.And and) {
      Test left = compile(and.left(), columns);
      Test right = compile(and.right(), columns);
      return row -> {
        Boolean a = left.test(row);
        if (Boolean.FALSE.equals(a)) {
          return false;
        }
        Boolean b = right.test(row);
        return Boolean.FALSE.equals(b) ? Boolean.FALSE : a == null || b == null ? null : true;
      };
    }
    ReadFilter.Or or = (ReadFilter.Or) filter;
    Test left = compile(or.left(), columns);
    Test right = compile(or.right(), columns);
    return row -> {
      Boolean a = left.test(row);
      if (Boolean.TRUE.equals(a)) {
        return true;
      }
      Boolean b = right.test(row);
      return Boolean.TRUE.equals(b) ? Boolean.TRUE : a == null || b == null ? null : false;
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Test comparison(ReadFilter.Compare compare, ReadColumns columns) {
    int index = index(columns, compare.column());
    DataType type = columns.resolved().types[index];
    Object literal =
        KernelRows.literalValue(ReadFilter.literal(compare.value(), type).getValue(), type);
    RowData.FieldGetter getter =
        RowData.createFieldGetter(columns.rowType().getTypeAt(index), index);
    String op = compare.op();
    return row -> {
      Object value = getter.getFieldOrNull(row);
      if (value == null) {
        return null;
      }
      int order =
          value instanceof byte[] bytes
              ? Arrays.compareUnsigned(bytes, (byte[]) literal)
              : ((Comparable) value).compareTo(literal);
      return switch (op) {
        case "=" -> order == 0;
        case "<" -> order < 0;
        case "<=" -> order <= 0;
        case ">" -> order > 0;
        default -> order >= 0;
      };
    };
  }

  private static int index(ReadColumns columns, String column) {
    List<String> names = columns.names();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException(
        String.format(
            "The filter of the read of Delta table %s names column '%s', which is not among the"
                + " columns read %s: read it too",
            columns.tableName(), column, names));
  }
}
