/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TypeChange;
import io.github.flinkdelta.sink.DeltaSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
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
 * The rows of the schema evolution tests, in two shapes. Row {@code i} of the first shape is {@code
 * (id i, bucket i % 3, qty INT, info ROW(label))}; the second shape widens {@code qty} to BIGINT
 * with values beyond INT, adds {@code info.score} and a top-level {@code note}. A table that took
 * both reads rows of the first shape with nulls in the added columns and {@code qty} as the same
 * number, now a BIGINT.
 */
public final class EvolvingRows {

  public static final int BUCKETS = 3;

  /** Added to every {@code qty} of the second shape: it needs a BIGINT. */
  public static final long BEYOND_INT = 5_000_000_000L;

  public static final RowType INFO_V1 =
      RowType.of(new LogicalType[] {string()}, new String[] {"label"});

  public static final RowType INFO_V2 =
      RowType.of(new LogicalType[] {string(), new IntType()}, new String[] {"label", "score"});

  public static final RowType V1 =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new IntType(), new IntType(), INFO_V1},
          new String[] {"id", "bucket", "qty", "info"});

  public static final RowType V2 =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), new BigIntType(), INFO_V2, string()
          },
          new String[] {"id", "bucket", "qty", "info", "note"});

  private EvolvingRows() {}

  public static VarCharType string() {
    return new VarCharType(VarCharType.MAX_LENGTH);
  }

  public static int bucket(long i) {
    return (int) (i % BUCKETS);
  }

  public static int qtyV1(long i) {
    return (int) (i * 7);
  }

  public static long qtyV2(long i) {
    return BEYOND_INT + i;
  }

  public static String label(long i) {
    return "label-" + i;
  }

  public static int score(long i) {
    return (int) (i % 100);
  }

  public static String note(long i) {
    return "note-" + i;
  }

  public static RowData v1(long i) {
    return GenericRowData.of(
        i, bucket(i), qtyV1(i), GenericRowData.of(StringData.fromString(label(i))));
  }

  public static RowData v2(long i) {
    return GenericRowData.of(
        i,
        bucket(i),
        qtyV2(i),
        GenericRowData.of(StringData.fromString(label(i)), score(i)),
        StringData.fromString(note(i)));
  }

  /** Row {@code i} of the first shape as the evolved table reads it. */
  public static List<Object> v1Read(long i) {
    return Arrays.asList(i, bucket(i), (long) qtyV1(i), Arrays.asList(label(i), null), null);
  }

  /** Row {@code i} of the second shape as the table reads it. */
  public static List<Object> v2Read(long i) {
    return Arrays.asList(i, bucket(i), qtyV2(i), Arrays.asList(label(i), score(i)), note(i));
  }

  /** Row {@code i} of the first shape as a table of the first shape reads it. */
  public static List<Object> v1AsWritten(long i) {
    return Arrays.asList(i, bucket(i), qtyV1(i), Arrays.asList(label(i)));
  }

  /** Rows 0 to {@code firstRows - 1} of the first shape, then {@code rows} of the second, read. */
  public static List<List<Object>> expected(long firstRows, long rows) {
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < firstRows; i++) {
      expected.add(v1Read(i));
    }
    for (long i = firstRows; i < firstRows + rows; i++) {
      expected.add(v2Read(i));
    }
    return expected;
  }

  /**
   * Writes rows {@code from} to {@code from + count - 1} of {@code shape} ({@link #V1} or {@link
   * #V2}) through {@code sink} in one batch job on {@code flink}: one commit.
   */
  public static void writeInBatch(
      FlinkCluster flink, RowType shape, DeltaSink sink, long from, long count) throws Exception {
    StreamExecutionEnvironment env = flink.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    DataStream<Long> indexes = indexes(env, count).map(i -> i + from).returns(Types.LONG);
    (shape == V1 ? v1Rows(indexes) : v2Rows(indexes)).sinkTo(sink);
    env.execute("rows " + from + " to " + (from + count - 1) + " of " + shape);
  }

  /**
   * The row numbers 0 to {@code count - 1} from a checkpointed generator (uid {@code generator}).
   */
  public static DataStream<Long> indexes(StreamExecutionEnvironment env, long count) {
    return indexes(env, count, i -> i, RateLimiterStrategy.noOp());
  }

  /** The row numbers 0 to {@code count - 1}, held at {@code gate} after some rows per reader. */
  public static DataStream<Long> indexes(
      StreamExecutionEnvironment env, long count, SourceGate gate, long rowsPerReader) {
    return indexes(env, count, gate.countedIndexes(), gate.after(rowsPerReader));
  }

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static DataStream<Long> indexes(
      StreamExecutionEnvironment env,
      long count,
      GeneratorFunction<Long, Long> generator,
      RateLimiterStrategy limiter) {
    DataGeneratorSource<Long> source =
        new DataGeneratorSource<>(generator, count, limiter, Types.LONG);
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator").uid("generator");
  }

  /** Rows of the first shape, one per row number. */
  public static DataStream<RowData> v1Rows(DataStream<Long> indexes) {
    return indexes.map(EvolvingRows::v1).returns(InternalTypeInfo.of(V1)).uid("to-rows");
  }

  /** Rows {@code from} to {@code from + count - 1} of the second shape, from a generator. */
  public static DataStream<RowData> v2Rows(StreamExecutionEnvironment env, long from, long count) {
    return v2Rows(indexes(env, count).map(i -> i + from).returns(Types.LONG));
  }

  /** Rows of the second shape, one per row number. */
  public static DataStream<RowData> v2Rows(DataStream<Long> indexes) {
    return indexes.map(EvolvingRows::v2).returns(InternalTypeInfo.of(V2)).uid("to-rows");
  }

  /** The schema of {@code table} is the second shape, with qty's widening recorded. */
  public static void assertSecondShape(String table) {
    var snapshot = DeltaLogFiles.snapshot(table);
    StructType schema = snapshot.getSchema();
    assertThat(schema.fieldNames()).containsExactly("id", "bucket", "qty", "info", "note");
    StructField qty = schema.get("qty");
    assertThat(qty.getDataType()).isEqualTo(LongType.LONG);
    assertThat(qty.getTypeChanges())
        .extracting(TypeChange::getFrom, TypeChange::getTo)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(IntegerType.INTEGER, LongType.LONG));
    assertThat(((StructType) schema.get("info").getDataType()).fieldNames())
        .containsExactly("label", "score");
    assertThat(schema.get("note").isNullable()).isTrue();
    assertThat(snapshot.getTableProperties()).containsEntry("delta.enableTypeWidening", "true");
  }
}
