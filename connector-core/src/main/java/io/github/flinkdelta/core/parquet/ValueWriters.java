/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.github.flinkdelta.core.parquet.ColumnStats.DecimalStats;
import io.github.flinkdelta.core.parquet.ColumnStats.DoubleStats;
import io.github.flinkdelta.core.parquet.ColumnStats.IntStats;
import io.github.flinkdelta.core.parquet.ColumnStats.LongStats;
import io.github.flinkdelta.core.parquet.ColumnStats.NullsOnly;
import java.util.List;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/** Builds the {@link ValueWriter} tree for a file's columns, with their statistics collectors. */
final class ValueWriters {

  private final String table;
  private final int statsPrefixChars;
  private final List<ColumnStats> stats;

  /**
   * @param table the table name, for error messages
   * @param statsPrefixChars string statistics are cut to this many characters
   * @param stats receives a collector for every column whose statistics are kept
   */
  ValueWriters(String table, int statsPrefixChars, List<ColumnStats> stats) {
    this.table = table;
    this.statsPrefixChars = statsPrefixChars;
    this.stats = stats;
  }

  /** The writer of a column that sits in a row, reached by the path {@code parent}. */
  ValueWriter forColumn(ParquetColumn column, Column parent) {
    Column path = parent.appendNestedField(column.physicalName());
    return create(column, path, column.collectStats());
  }

  private ValueWriter create(ParquetColumn column, Column path, boolean collect) {
    LogicalType type = column.type();
    String name = String.join(".", path.getNames());
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return new LeafWriters.BooleanWriter(nullsOnly(path, collect));
      case TINYINT:
        return new LeafWriters.ByteWriter(intStats(path, collect, IntStats.Kind.BYTE));
      case SMALLINT:
        return new LeafWriters.ShortWriter(intStats(path, collect, IntStats.Kind.SHORT));
      case INTEGER:
        return new LeafWriters.IntWriter(intStats(path, collect, IntStats.Kind.INT));
      case DATE:
        return new LeafWriters.IntWriter(intStats(path, collect, IntStats.Kind.DATE));
      case BIGINT:
        return new LeafWriters.LongWriter(longStats(path, collect, LongStats.Kind.LONG));
      case FLOAT:
        return new LeafWriters.FloatWriter(collect ? register(new DoubleStats(path, true)) : null);
      case DOUBLE:
        return new LeafWriters.DoubleWriter(
            collect ? register(new DoubleStats(path, false)) : null);
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        return new LeafWriters.DecimalWriter(
            decimal.getPrecision(),
            decimal.getScale(),
            collect
                ? register(new DecimalStats(path, decimal.getPrecision(), decimal.getScale()))
                : null);
      case CHAR:
      case VARCHAR:
        return new LeafWriters.StringWriter(
            collect ? register(new StringStats(path, statsPrefixChars)) : null);
      case BINARY:
      case VARBINARY:
        return new LeafWriters.BinaryWriter(nullsOnly(path, collect));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return new LeafWriters.TimestampWriter(
            ((TimestampType) type).getPrecision(),
            longStats(path, collect, LongStats.Kind.TIMESTAMP_NTZ));
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return new LeafWriters.TimestampWriter(
            ((LocalZonedTimestampType) type).getPrecision(),
            longStats(path, collect, LongStats.Kind.TIMESTAMP));
      case ARRAY:
      case MAP:
      case ROW:
        return nested(column, path, collect);
      default:
        throw new IllegalArgumentException(
            "Column '" + name + "' of " + table + " has unsupported type " + type);
    }
  }

  /** The writer of an array, map or row column, its children's writers within. */
  private ValueWriter nested(ParquetColumn column, Column path, boolean collect) {
    String name = String.join(".", path.getNames());
    switch (column.type().getTypeRoot()) {
      case ARRAY:
        {
          ParquetColumn element = column.children().get(0);
          return new NestedWriters.ArrayWriter(
              table,
              name,
              element,
              create(element, path.appendNestedField("element"), false),
              nullsOnly(path, collect));
        }
      case MAP:
        {
          ParquetColumn key = column.children().get(0);
          ParquetColumn value = column.children().get(1);
          return new NestedWriters.MapWriter(
              table,
              name,
              create(key, path.appendNestedField("key"), false),
              value,
              create(value, path.appendNestedField("value"), false),
              nullsOnly(path, collect));
        }
      case ROW:
        {
          List<ParquetColumn> fields = column.children();
          ValueWriter[] writers = new ValueWriter[fields.size()];
          for (int i = 0; i < writers.length; i++) {
            writers[i] =
                create(
                    fields.get(i),
                    path.appendNestedField(fields.get(i).physicalName()),
                    collect && fields.get(i).collectStats());
          }
          return new NestedWriters.RowWriter(
              new FieldsWriter(table, name + ".", fields, writers, null));
        }
      default:
        throw new IllegalStateException("not a nested type: " + column.type());
    }
  }

  private <T extends ColumnStats> T register(T columnStats) {
    stats.add(columnStats);
    return columnStats;
  }

  private NullsOnly nullsOnly(Column path, boolean collect) {
    return collect ? register(new NullsOnly(path)) : null;
  }

  private IntStats intStats(Column path, boolean collect, IntStats.Kind kind) {
    return collect ? register(new IntStats(path, kind)) : null;
  }

  private LongStats longStats(Column path, boolean collect, LongStats.Kind kind) {
    return collect ? register(new LongStats(path, kind)) : null;
  }
}
