/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

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
import org.apache.flink.types.RowKind;

/**
 * The upsert benchmark's changelog, the same on every run and the same changes as the end-to-end
 * tests' generator ({@code integration-tests/.../Changelog.java}): change {@code i} touches key
 * {@code hash(i) % keys} and is a delete (10 %), an insert (20 %, often of a live key) or an
 * update-after (70 %); updates and deletes of absent keys happen too. The value {@code version} is
 * {@code i}. {@link #expected} replays the changes into what the table must hold: the number of
 * live keys and the sum of their versions.
 */
final class UpsertChangelog implements java.io.Serializable {

  private static final long serialVersionUID = 1L;

  static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new IntType(),
            new BigIntType(),
            new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "version", "payload"});

  static final String KEY = "id";

  private static final int BUCKETS = 3;

  private final long keys;

  UpsertChangelog(long keys) {
    this.keys = keys;
  }

  long keys() {
    return keys;
  }

  /** Change {@code i}. */
  RowData change(long i) {
    GenericRowData row =
        GenericRowData.of(
            key(i),
            (int) (i % BUCKETS),
            i,
            StringData.fromString("payload-" + i + "-of-" + key(i)));
    row.setRowKind(kindOf(i));
    return row;
  }

  /**
   * Change {@code i} as an insert of a key no other change touches: {@code keys + i}, beyond the
   * changelog's keys.
   */
  RowData insertOfNewKey(long i) {
    long key = keys + i;
    GenericRowData row =
        GenericRowData.of(
            key, (int) (i % BUCKETS), i, StringData.fromString("payload-" + i + "-of-" + key));
    row.setRowKind(RowKind.INSERT);
    return row;
  }

  private long key(long i) {
    return Math.floorMod(mix(i), keys);
  }

  private static RowKind kindOf(long i) {
    int kind = (int) Math.floorMod(mix(i * 31 + 7), 10);
    return kind == 0 ? RowKind.DELETE : kind <= 2 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
  }

  /**
   * Changes {@code 0 .. count - 1} from one source reader, so that the changes of a key keep their
   * order on the way to its writer, marking progress as {@link GenerationProgress} does; at most
   * {@code perSecond} a second when that is positive.
   */
  DataStream<RowData> source(StreamExecutionEnvironment env, long count, double perSecond) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> {
              GenerationProgress.mark(i);
              return change(i);
            },
            count,
            perSecond > 0 ? RateLimiterStrategy.perSecond(perSecond) : RateLimiterStrategy.noOp(),
            InternalTypeInfo.of(TYPE));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "changelog")
        .setParallelism(1)
        .uid("changelog");
  }

  /**
   * Row {@code i} of a table that holds keys {@code 0 .. n - 1} before the changelog starts: key
   * {@code i}, version {@code i}, an insert.
   */
  static RowData initialRow(long i) {
    GenericRowData row =
        GenericRowData.of(
            i, (int) (i % BUCKETS), i, StringData.fromString("payload-" + i + "-of-" + i));
    row.setRowKind(RowKind.INSERT);
    return row;
  }

  /** What changes {@code 0 .. count - 1} leave: live keys and the sum of their versions. */
  Contents expected(long count) {
    return expected(0, count);
  }

  /**
   * What changes {@code 0 .. count - 1} leave on a table of {@code initialRows} rows of {@link
   * #initialRow}.
   */
  Contents expected(long initialRows, long count) {
    return expected(initialRows, count, i -> false);
  }

  /**
   * What changes {@code 0 .. count - 1} leave on a table of {@code initialRows} rows of {@link
   * #initialRow}, where the changes {@code newKeys} holds were {@link #insertOfNewKey} instead.
   */
  Contents expected(long initialRows, long count, java.util.function.LongPredicate newKeys) {
    long[] version = new long[Math.toIntExact(keys)];
    java.util.Arrays.fill(version, -1);
    for (int key = 0; key < initialRows; key++) {
      version[key] = key;
    }
    long inserted = 0;
    long insertedVersions = 0;
    for (long i = 0; i < count; i++) {
      if (newKeys.test(i)) {
        inserted++;
        insertedVersions += i;
        continue;
      }
      int key = (int) key(i);
      version[key] = kindOf(i) == RowKind.DELETE ? -1 : i;
    }
    Contents changed = contents(version);
    return new Contents(changed.rows() + inserted, changed.versionSum() + insertedVersions);
  }

  private static Contents contents(long[] version) {
    long live = 0;
    long sum = 0;
    for (long v : version) {
      if (v >= 0) {
        live++;
        sum += v;
      }
    }
    return new Contents(live, sum);
  }

  /**
   * Another engine's {@code DELETE ... WHERE version < stop AND id % 100 = residue}, run when the
   * table held every change before {@code stop}.
   */
  record Deletion(long stop, long residue) {}

  /**
   * What changes {@code 0 .. count - 1} and {@code deletes} leave: each deletion takes effect
   * between change {@code stop - 1} and change {@code stop}, as a later change of a key replaces
   * what a deletion left of it whenever the deletion ran.
   */
  Contents expected(long count, List<Deletion> deletes) {
    long[] version = new long[Math.toIntExact(keys)];
    java.util.Arrays.fill(version, -1);
    List<Deletion> byStop =
        deletes.stream().sorted(java.util.Comparator.comparingLong(Deletion::stop)).toList();
    int next = 0;
    for (long i = 0; i <= count; i++) {
      for (; next < byStop.size() && byStop.get(next).stop() <= i; next++) {
        for (int key = 0; key < version.length; key++) {
          if (key % 100 == byStop.get(next).residue()) {
            version[key] = -1;
          }
        }
      }
      if (i < count) {
        int key = (int) key(i);
        version[key] = kindOf(i) == RowKind.DELETE ? -1 : i;
      }
    }
    return contents(version);
  }

  /** A table's rows in two figures: how many, and the sum of their {@code version} column. */
  record Contents(long rows, long versionSum) {}

  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }
}
