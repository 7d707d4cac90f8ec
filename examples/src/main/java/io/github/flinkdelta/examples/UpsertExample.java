/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
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
 * A job writes a changelog of stock levels into a Delta table on local disk, with the sink keyed by
 * {@code sku}: inserts, updates and deletes over 200 keys, generated the same way on every run,
 * checkpointed every second. Each checkpoint becomes one Delta version; rows it replaces or deletes
 * are marked deleted with deletion vectors.
 *
 * <p>The table {@code stock} is partitioned by {@code warehouse}, which is not part of the key: a
 * key's warehouse changes with its value, so a key moves between partitions and leaves its old one.
 *
 * <p>Prints the table's path, the changes sent, the table's versions and its row count next to the
 * number of keys live at the end of the changelog, replayed from the same generator; it fails if
 * the table's rows are not the changelog's last value of every live key.
 *
 * <p>Arguments: {@code [--path <directory>]}, where the table {@code stock} is created; by default
 * a new directory under the system temp directory.
 */
public final class UpsertExample {

  /**
   * The table's rows: the key, its warehouse (the partition), its quantity, the change's number.
   */
  static final RowType STOCK =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new IntType(),
            new BigIntType()
          },
          new String[] {"sku", "warehouse", "quantity", "change"});

  static final long KEYS = 200;
  static final long CHANGES = 5_000;
  private static final String[] WAREHOUSES = {"lisbon", "oslo", "lyon"};

  private UpsertExample() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        args.length >= 2 && args[0].equals("--path")
            ? Path.of(args[1])
            : Files.createTempDirectory("flink-delta-upsert");
    run(dir);
  }

  /** Runs the job on the table {@code stock} in {@code dir}; returns the table's URI. */
  static String run(Path dir) throws Exception {
    Path tableDir = dir.resolve("stock");
    if (Files.exists(tableDir)) {
      throw new IllegalArgumentException(
          tableDir + " exists already; give --path a directory without a 'stock' table");
    }
    String table = tableDir.toUri().toString();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofSeconds(1).toMillis());
    // Without a minimum pause Flink 2.3 takes its first checkpoint as soon as the job starts.
    env.getCheckpointConfig().setMinPauseBetweenCheckpoints(Duration.ofSeconds(1).toMillis());

    // One source reader, so that the changes of a key reach its writer in order.
    DataGeneratorSource<RowData> changes =
        new DataGeneratorSource<>(
            UpsertExample::change,
            CHANGES,
            RateLimiterStrategy.perSecond(1_000),
            InternalTypeInfo.of(STOCK));

    DeltaSink sink =
        DeltaSink.builder()
            .tablePath(table)
            .rowType(STOCK)
            .partitionColumns("warehouse")
            .primaryKey("sku") // takes the changelog; rows reach the writers by a hash of sku
            .build();

    env.fromSource(changes, WatermarkStrategy.noWatermarks(), "stock changes")
        .setParallelism(1)
        .uid("stock-changes")
        .sinkTo(sink)
        .uid("stock-delta-sink");
    env.execute("flink-delta upsert example");

    Map<Long, RowData> live = replay(CHANGES);
    String rows = TableContents.rows(table);
    System.out.println();
    System.out.println("Table:    " + table);
    System.out.println("Changes:  " + describe(CHANGES));
    System.out.println("Versions:");
    System.out.print(TableContents.versions(tableDir));
    System.out.println(
        "Rows:     " + rows.lines().count() + " (expected live keys: " + live.size() + ")");
    if (!rows.equals(expectedRows(live))) {
      throw new IllegalStateException(
          "the table's rows are not the last value of every live key of the changelog");
    }
    System.out.println("Every row is its key's last value in the changelog.");
    return table;
  }

  /**
   * Change {@code i} of the changelog. Key and kind come from a hash of {@code i}: 10 % deletes, 20
   * % inserts (often of a live key, as a redelivered insert is), and updates; at even {@code i} an
   * update is sometimes sent as an {@code UPDATE_BEFORE}, then an {@code UPDATE_AFTER} at {@code i
   * + 1}, as a CDC source sends it. Deletes and updates of absent keys occur too. The sink reads
   * only the key of a delete or an update-before.
   */
  static RowData change(long i) {
    boolean afterBefore = i % 2 == 1 && kind(i - 1) == RowKind.UPDATE_BEFORE;
    long sku = key(afterBefore ? i - 1 : i);
    GenericRowData row =
        GenericRowData.of(
            sku,
            StringData.fromString(WAREHOUSES[(int) (i % WAREHOUSES.length)]),
            (int) Math.floorMod(mix(i * 17 + 3), 1_000),
            i);
    row.setRowKind(afterBefore ? RowKind.UPDATE_AFTER : kind(i));
    return row;
  }

  private static long key(long i) {
    return Math.floorMod(mix(i), KEYS);
  }

  private static RowKind kind(long i) {
    int draw = (int) Math.floorMod(mix(i * 31 + 7), 20);
    if (draw < 2) {
      return RowKind.DELETE;
    } else if (draw < 6) {
      return RowKind.INSERT;
    } else if (draw < 8 && i % 2 == 0) {
      return RowKind.UPDATE_BEFORE;
    }
    return RowKind.UPDATE_AFTER;
  }

  /** The live row of every key after changes {@code 0 .. count - 1}, as the table must hold it. */
  static Map<Long, RowData> replay(long count) {
    Map<Long, RowData> live = new TreeMap<>();
    for (long i = 0; i < count; i++) {
      RowData change = change(i);
      switch (change.getRowKind()) {
        case INSERT, UPDATE_AFTER -> live.put(change.getLong(0), change);
        case DELETE, UPDATE_BEFORE -> live.remove(change.getLong(0));
      }
    }
    return live;
  }

  /** The rows as {@link TableContents#rows} prints them. */
  static String expectedRows(Map<Long, RowData> live) {
    StringBuilder out = new StringBuilder();
    for (RowData row : live.values()) {
      out.append(
          String.format(
              "  sku=%d, warehouse=%s, quantity=%d, change=%d\n",
              row.getLong(0), row.getString(1), row.getInt(2), row.getLong(3)));
    }
    return out.toString();
  }

  private static String describe(long count) {
    Map<RowKind, Integer> kinds = new TreeMap<>();
    for (long i = 0; i < count; i++) {
      kinds.merge(change(i).getRowKind(), 1, Integer::sum);
    }
    return String.format(
        "%d over %d keys (%d inserts, %d update-befores, %d update-afters, %d deletes)",
        count,
        KEYS,
        kinds.getOrDefault(RowKind.INSERT, 0),
        kinds.getOrDefault(RowKind.UPDATE_BEFORE, 0),
        kinds.getOrDefault(RowKind.UPDATE_AFTER, 0),
        kinds.getOrDefault(RowKind.DELETE, 0));
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }
}
