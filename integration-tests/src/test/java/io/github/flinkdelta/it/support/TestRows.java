/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The rows the end-to-end tests stream: row {@code i} is (id i, bucket i % buckets, payload). A
 * table read back is compared with {@link #expected} row for row.
 */
public final class TestRows {

  public static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "payload"});

  private TestRows() {}

  public static RowData row(long i, int buckets) {
    return GenericRowData.of(
        i, (int) (i % buckets), StringData.fromString("payload-" + i + "-" + "x".repeat(20)));
  }

  /** A checkpointed generator of {@code count} rows at {@code perSecond} rows per second. */
  public static DataStream<RowData> source(
      StreamExecutionEnvironment env, long count, double perSecond, int buckets) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> row(i, buckets),
            count,
            RateLimiterStrategy.perSecond(perSecond),
            InternalTypeInfo.of(TYPE));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator").uid("generator");
  }

  /** A row of {@link #TYPE} as a table read returns it. */
  public static List<Object> values(RowData row) {
    return values(row, TYPE);
  }

  /** A row of {@code type}, of BIGINT, INT and STRING columns, as a table read returns it. */
  public static List<Object> values(RowData row, RowType type) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < type.getFieldCount(); i++) {
      LogicalType field = type.getTypeAt(i);
      if (row.isNullAt(i)) {
        values.add(null);
      } else if (field instanceof BigIntType) {
        values.add(row.getLong(i));
      } else if (field instanceof IntType) {
        values.add(row.getInt(i));
      } else {
        values.add(row.getString(i).toString());
      }
    }
    return values;
  }

  public static List<List<Object>> expected(long count, int buckets) {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      rows.add(List.of(i, (int) (i % buckets), "payload-" + i + "-" + "x".repeat(20)));
    }
    return rows;
  }

  /** Reads {@code table} back and checks it holds rows 0 to count - 1, each exactly once. */
  public static void assertTableHoldsExactly(String table, long count, int buckets) {
    List<List<Object>> rows = DeltaTableReader.readAll(table);
    assertThat(rows).as("rows of %s", table).hasSize((int) count);
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected(count, buckets));
  }
}
