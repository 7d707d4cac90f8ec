/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
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
import org.apache.flink.types.RowKind;

/**
 * A changelog over a fixed key space, the same on every run: change {@code i} touches key {@code
 * hash(i) % keys} and is a delete (10 %), an insert (20 %, often of a live key: a redelivered
 * insert) or an update-after (70 %); an update or delete of an absent key happens too. The value is
 * {@code i}, and the partition column {@code bucket} follows the value, so a key moves between
 * partitions. {@link #expected} replays the changes into the rows the table must hold.
 *
 * <p>A changelog of another {@code seed} draws other keys and kinds from the same rules; seed 0 is
 * the changelog of {@link #Changelog(long)}.
 */
public final class Changelog implements java.io.Serializable {

  private static final long serialVersionUID = 1L;

  public static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new IntType(),
            new BigIntType(),
            new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "version", "payload"});

  public static final int BUCKETS = 3;

  private final long keys;
  private final long salt;

  public Changelog(long keys) {
    this(keys, 0);
  }

  public Changelog(long keys, long seed) {
    this.keys = keys;
    this.salt = seed == 0 ? 0 : mix(seed);
  }

  public RowData change(long i) {
    long key = keyOf(i);
    int kind = (int) Math.floorMod(mix((i * 31 + 7) ^ salt), 10);
    GenericRowData row =
        GenericRowData.of(
            key, (int) (i % BUCKETS), i, StringData.fromString("payload-" + i + "-of-" + key));
    row.setRowKind(kind == 0 ? RowKind.DELETE : kind <= 2 ? RowKind.INSERT : RowKind.UPDATE_AFTER);
    return row;
  }

  /**
   * Changes {@code from} to {@code from + count - 1}, at {@code perSecond}, from one source reader
   * so that the changes of a key keep their order on the way to its writer.
   */
  public DataStream<RowData> source(
      StreamExecutionEnvironment env, long from, long count, double perSecond) {
    return source(env, from, count, RateLimiterStrategy.perSecond(perSecond));
  }

  /**
   * As {@link #source(StreamExecutionEnvironment, long, long, double)}, at the pace of {@code rate}
   * (a {@link SourceGate}'s or a {@link PhaseGate}'s).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public DataStream<RowData> source(
      StreamExecutionEnvironment env, long from, long count, RateLimiterStrategy rate) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(i -> change(from + i), count, rate, InternalTypeInfo.of(TYPE));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
        .setParallelism(1)
        .uid("changelog");
  }

  /**
   * As {@link #source(StreamExecutionEnvironment, long, long, double)}, unpaced, held by {@code
   * gate} after {@code beforeGate} changes, which it counts ({@link SourceGate#emitted}).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public DataStream<RowData> source(
      StreamExecutionEnvironment env, long from, long count, SourceGate gate, long beforeGate) {
    GeneratorFunction<Long, Long> counted = gate.countedIndexes();
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> change(from + counted.map(i)),
            count,
            (RateLimiterStrategy) gate.after(beforeGate),
            InternalTypeInfo.of(TYPE));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
        .setParallelism(1)
        .uid("changelog");
  }

  /**
   * As {@link #source(StreamExecutionEnvironment, long, long, double)}, held by {@code gate} before
   * its element in every attempt ({@link IndexGate}).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public DataStream<RowData> source(
      StreamExecutionEnvironment env, long from, long count, IndexGate gate, double perSecond) {
    GeneratorFunction<Long, Long> indexes = gate.indexes();
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> change(from + indexes.map(i)),
            count,
            (RateLimiterStrategy) gate.limiter(perSecond),
            InternalTypeInfo.of(TYPE));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
        .setParallelism(1)
        .uid("changelog");
  }

  /** The rows after changes {@code 0 .. count - 1}, by key. */
  public Map<Long, List<Object>> expected(long count) {
    return expected(Map.of(), 0, count);
  }

  /** The rows after changes {@code from .. to - 1} applied to {@code rows}, by key. */
  public Map<Long, List<Object>> expected(Map<Long, List<Object>> rows, long from, long to) {
    Map<Long, List<Object>> after = new TreeMap<>(rows);
    for (long i = from; i < to; i++) {
      RowData change = change(i);
      if (change.getRowKind() == RowKind.DELETE) {
        after.remove(change.getLong(0));
      } else {
        after.put(
            change.getLong(0),
            List.of(
                change.getLong(0),
                change.getInt(1),
                change.getLong(2),
                change.getString(3).toString()));
      }
    }
    return after;
  }

  /** The key of change {@code i}. */
  public long keyOf(long i) {
    return Math.floorMod(mix(i ^ salt), keys);
  }

  /** The rows of {@code expected} as a table read returns them. */
  public static List<List<Object>> rows(Map<Long, List<Object>> expected) {
    return new ArrayList<>(expected.values());
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }
}
