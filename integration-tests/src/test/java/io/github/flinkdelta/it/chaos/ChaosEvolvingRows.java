/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import java.util.Arrays;
import java.util.List;
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

/**
 * Rows of a stream whose shape changes on a redeploy. Version 1 is (id, bucket, payload, qty INT).
 * Version 2 has qty as BIGINT, a new column tag, and its columns in another order: (id, bucket,
 * tag, qty BIGINT, payload). Each id has one value of each column in each version, and the two
 * versions' values of qty differ (version 2's do not fit an INT), so a row read back tells which
 * version wrote it and whether each of its values is right.
 */
final class ChaosEvolvingRows {

  static final RowType V1 =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new IntType(), string(), new IntType()},
          new String[] {"id", "bucket", "payload", "qty"});

  static final RowType V2 =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), string(), new BigIntType(), string()
          },
          new String[] {"id", "bucket", "tag", "qty", "payload"});

  private ChaosEvolvingRows() {}

  static RowData v1(long id, int buckets) {
    return GenericRowData.of(id, bucket(id, buckets), StringData.fromString(payload(id)), qty1(id));
  }

  static RowData v2(long id, int buckets) {
    return GenericRowData.of(
        id,
        bucket(id, buckets),
        StringData.fromString(tag(id)),
        qty2(id),
        StringData.fromString(payload(id)));
  }

  /**
   * A checkpointed generator of ids {@code 0 .. count-1} in {@code version}'s shape. Both versions
   * have the same uid and so the same state: restored from a savepoint of version 1, version 2 goes
   * on with the ids version 1 had not sent.
   */
  static DataStream<RowData> source(
      StreamExecutionEnvironment env,
      int version,
      long count,
      RateLimiterStrategy rate,
      int buckets) {
    GeneratorFunction<Long, RowData> rows =
        version == 1 ? id -> v1(id, buckets) : id -> v2(id, buckets);
    @SuppressWarnings("unchecked")
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(rows, count, rate, InternalTypeInfo.of(version == 1 ? V1 : V2));
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator").uid("generator");
  }

  /**
   * A row of the table after both versions and {@code laterColumns} nullable columns another writer
   * added, as version 1 wrote it: id, bucket, payload, qty widened, null tag and later columns.
   */
  static List<Object> v1AsRead(long id, int buckets, int laterColumns) {
    return row(
        laterColumns, id, bucket(id, buckets), payload(id), (long) qty1(id), /* tag= */ null);
  }

  /** As {@link #v1AsRead}, for a row version 2 wrote. */
  static List<Object> v2AsRead(long id, int buckets, int laterColumns) {
    return row(laterColumns, id, bucket(id, buckets), payload(id), qty2(id), tag(id));
  }

  /** A row of version 1 as the table reads it before the redeploy. */
  static List<Object> v1BeforeRedeploy(long id, int buckets) {
    return List.of(id, bucket(id, buckets), payload(id), qty1(id));
  }

  /**
   * How a table's rows compare with ids {@code 0 .. count-1}, each sent once, in version 1 or 2.
   *
   * @param version1 rows that read exactly as version 1 wrote them
   * @param version2 rows that read exactly as version 2 wrote them
   * @param wrong rows whose id was never sent or whose values are neither version's, a few of them
   *     in {@code examples}
   * @param duplicates rows whose id another row has already
   * @param losses ids sent that no row has
   */
  record Census(
      long version1,
      long version2,
      long wrong,
      long duplicates,
      long losses,
      List<List<Object>> examples) {

    static Census of(List<List<Object>> rows, long count, int buckets, int laterColumns) {
      java.util.Set<Long> ids = new java.util.HashSet<>();
      long version1 = 0;
      long version2 = 0;
      long duplicates = 0;
      List<List<Object>> wrong = new java.util.ArrayList<>();
      for (List<Object> row : rows) {
        long id = (Long) row.get(0);
        if (!ids.add(id)) {
          duplicates++;
        } else if (id < 0 || id >= count) {
          wrong.add(row);
        } else if (row.equals(v1AsRead(id, buckets, laterColumns))) {
          version1++;
        } else if (row.equals(v2AsRead(id, buckets, laterColumns))) {
          version2++;
        } else {
          wrong.add(row);
        }
      }
      long losses = count - ids.stream().filter(id -> id >= 0 && id < count).count();
      return new Census(
          version1,
          version2,
          wrong.size(),
          duplicates,
          losses,
          wrong.subList(0, Math.min(3, wrong.size())));
    }
  }

  private static List<Object> row(int laterColumns, Object... values) {
    Object[] row = Arrays.copyOf(values, values.length + laterColumns);
    return Arrays.asList(row);
  }

  private static int bucket(long id, int buckets) {
    return (int) (id % buckets);
  }

  private static String payload(long id) {
    return "payload-" + id;
  }

  /** Spread over the whole INT range, negatives included. */
  private static int qty1(long id) {
    return (int) (id * 2_654_435_761L);
  }

  /** Beyond the INT range: only a widened column holds it. */
  private static long qty2(long id) {
    return 3_000_000_000L + id * 7;
  }

  private static String tag(long id) {
    return "tag-" + id;
  }

  private static LogicalType string() {
    return new VarCharType(VarCharType.MAX_LENGTH);
  }
}
