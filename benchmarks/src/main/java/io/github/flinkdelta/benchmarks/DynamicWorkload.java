/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;

/**
 * What the dynamic section feeds both multi-table sinks: rows of {@link BenchmarkRows} spread over
 * {@code tables} tables, {@code bench.t0} to {@code bench.t<tables - 1>}, a row going to table
 * {@code event_id % tables}. Every table is new when the job starts.
 *
 * <ul>
 *   <li>{@link Mode#APPEND}: row {@code i} with {@code event_id = i}, so tables take rows round
 *       robin; from one source reader per sink subtask, chained to the sink.
 *   <li>{@link Mode#UPSERT}: change {@code i} is row {@code i} with {@code event_id} set to the key
 *       {@code hash(i) % keys}, the tables' primary key, and is a delete (10 %), an insert (20 %)
 *       or an update-after (70 %), as the upsert section's changelog is; from one source reader, so
 *       that a key's changes keep their order on the way to its writer.
 * </ul>
 *
 * @param mode appends, or changes by primary key
 * @param tables how many tables the rows spread over
 * @param rows rows (appends) or changes (upserts) generated
 * @param keys the key space of the changes; unused for appends
 */
record DynamicWorkload(Mode mode, int tables, long rows, long keys)
    implements java.io.Serializable {

  /**
   * The earliest moment, in epoch milliseconds, any source subtask generated its first row: where
   * the new tables' first records start. The embedded cluster runs the job in the JVM that reads
   * this, as {@link GenerationProgress} does; one job per JVM.
   */
  private static final AtomicLong FIRST_ROW_MILLIS = new AtomicLong(Long.MAX_VALUE);

  /** The namespace of every table: its directory under a root or warehouse. */
  static final String NAMESPACE = "bench";

  /** The primary key of the upsert tables. */
  static final String KEY = BenchmarkRows.TYPE.getFieldNames().get(0);

  enum Mode {
    APPEND,
    UPSERT;

    String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    static Mode of(String id) {
      for (Mode mode : values()) {
        if (mode.id().equals(id)) {
          return mode;
        }
      }
      throw new IllegalArgumentException("Unknown mode '" + id + "'; known: append, upsert");
    }
  }

  DynamicWorkload {
    java.util.Objects.requireNonNull(mode, "mode");
    if (tables < 1 || rows < 1 || (mode == Mode.UPSERT && keys < 1)) {
      throw new IllegalArgumentException(
          String.format(
              "tables (%d), rows (%d) and, for upserts, keys (%d) must be positive",
              tables, rows, keys));
    }
  }

  boolean upserts() {
    return mode == Mode.UPSERT;
  }

  /** The name of table {@code table} within {@link #NAMESPACE}. */
  static String tableName(int table) {
    return "t" + table;
  }

  /** The table a row of event id {@code eventId} goes to. */
  static int tableOf(long eventId, int tables) {
    return (int) (eventId % tables);
  }

  /** The event ids a digest of the tables' rows is checked against: rows, or keys. */
  long idSpace() {
    return upserts() ? keys : rows;
  }

  /** The job's source: appends at the environment's parallelism, changes from one reader. */
  DataStream<RowData> source(StreamExecutionEnvironment env) {
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            new Generation(this), rows, InternalTypeInfo.of(BenchmarkRows.TYPE));
    DataStreamSource<RowData> generated =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "dynamic-rows");
    generated.uid("dynamic-rows");
    if (upserts()) {
      generated.setParallelism(1);
    }
    return generated;
  }

  /** Row or change {@code i}. */
  RowData row(long i) {
    if (!upserts()) {
      return BenchmarkRows.row(i);
    }
    GenericRowData row = (GenericRowData) BenchmarkRows.row(i);
    row.setField(0, key(i));
    row.setRowKind(kindOf(i));
    return row;
  }

  /**
   * When the first row of the job was generated, in epoch milliseconds; {@link Long#MAX_VALUE}
   * before.
   */
  static long firstRowMillis() {
    return FIRST_ROW_MILLIS.get();
  }

  /**
   * What the tables must hold once every row or change has landed.
   *
   * @param digest the digest of every live row of every table
   * @param rowsPerTable the live rows of each table
   */
  record Expected(RowDigest.Contents digest, java.util.List<Long> rowsPerTable) {
    Expected {
      rowsPerTable = java.util.List.copyOf(rowsPerTable);
    }
  }

  Expected expected() {
    long[] perTable = new long[tables];
    if (!upserts()) {
      for (int t = 0; t < tables; t++) {
        perTable[t] = rows / tables + (t < rows % tables ? 1 : 0);
      }
      return new Expected(RowDigest.ofGenerated(rows), boxed(perTable));
    }
    long[] last = new long[Math.toIntExact(keys)];
    java.util.Arrays.fill(last, -1);
    for (long i = 0; i < rows; i++) {
      last[(int) key(i)] = kindOf(i) == RowKind.DELETE ? -1 : i;
    }
    RowDigest digest = new RowDigest(keys);
    for (int key = 0; key < last.length; key++) {
      if (last[key] >= 0) {
        digest.add(row(last[key]));
        perTable[tableOf(key, tables)]++;
      }
    }
    return new Expected(digest.contents(), boxed(perTable));
  }

  private static java.util.List<Long> boxed(long[] values) {
    return java.util.Arrays.stream(values).boxed().toList();
  }

  private long key(long i) {
    return Math.floorMod(mix(i), keys);
  }

  private static RowKind kindOf(long i) {
    int kind = (int) Math.floorMod(mix(i * 31 + 7), 10);
    return kind == 0 ? RowKind.DELETE : kind <= 2 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
  }

  /** Murmur3's 64-bit finaliser: neighbouring indexes get unrelated keys. */
  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }

  /**
   * The source's generator, one instance per source subtask: marks progress for {@link
   * ThroughputAfterWarmUp} and the moment of its first row.
   */
  private static final class Generation implements GeneratorFunction<Long, RowData> {

    private final DynamicWorkload workload;
    private transient boolean started;

    Generation(DynamicWorkload workload) {
      this.workload = workload;
    }

    @Override
    public RowData map(Long i) {
      if (!started) {
        started = true;
        FIRST_ROW_MILLIS.accumulateAndGet(System.currentTimeMillis(), Math::min);
      }
      GenerationProgress.mark(i);
      return workload.row(i);
    }
  }
}
