/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.source.DeltaSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.CloseableIterator;

/**
 * Writes a Delta table on local disk and reads it back with {@link DeltaSource}: a bounded read of
 * the whole table, one of two columns, and a continuous read that picks up the rows a later job
 * appends.
 *
 * <p>Prints the table's path, the rows each read emitted, and the first rows of the bounded read.
 *
 * <p>Arguments: {@code [--path <directory>]}, where the table {@code orders} is created; by default
 * a new directory under the system temp directory.
 */
public final class ReadExample {

  static final RowType ORDERS =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new DoubleType()
          },
          new String[] {"id", "region", "amount"});

  private static final String[] REGIONS = {"emea", "amer", "apac"};

  private ReadExample() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        args.length >= 2 && args[0].equals("--path")
            ? Path.of(args[1])
            : Files.createTempDirectory("flink-delta-read");
    String table = dir.resolve("orders").toUri().toString();

    write(table, 0, 1_000);
    System.out.println();
    System.out.println("Table: " + table);

    List<RowData> all = collect(DeltaSource.builder().tablePath(table).bounded().build(), -1);
    System.out.println("Bounded read of every column: " + all.size() + " rows, first three:");
    all.stream().limit(3).forEach(row -> System.out.println("  " + describe(row)));

    List<RowData> amounts =
        collect(
            DeltaSource.builder().tablePath(table).columns("region", "amount").bounded().build(),
            -1);
    double total = amounts.stream().mapToDouble(row -> row.getDouble(1)).sum();
    System.out.printf(
        "Bounded read of (region, amount): %d rows, total %.2f%n", amounts.size(), total);

    // A continuous read from the version after the first job's: the second job's rows.
    long next = TableContents.latestVersion(table) + 1;
    write(table, 1_000, 250);
    List<RowData> appended =
        collect(DeltaSource.builder().tablePath(table).continuous().version(next).build(), 250);
    System.out.println(
        "Continuous read from version " + next + ": " + appended.size() + " rows appended later");
  }

  /** Appends orders {@code from} to {@code from + count - 1}, in one job. */
  private static void write(String table, long from, int count) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    List<RowData> rows = new ArrayList<>();
    for (long id = from; id < from + count; id++) {
      rows.add(
          GenericRowData.of(
              id, StringData.fromString(REGIONS[(int) (id % REGIONS.length)]), (id % 97) * 1.5));
    }
    DeltaSink sink =
        DeltaSink.builder().tablePath(table).rowType(ORDERS).partitionColumns("region").build();
    env.fromData(rows, InternalTypeInfo.of(ORDERS)).sinkTo(sink);
    env.execute("read example: write orders " + from + ".." + (from + count - 1));
  }

  /** The rows {@code source} emits: all of a bounded read, the first {@code limit} otherwise. */
  private static List<RowData> collect(DeltaSource source, int limit) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<RowData> rows = new ArrayList<>();
    try (CloseableIterator<RowData> it =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "orders").executeAndCollect()) {
      while ((limit < 0 || rows.size() < limit) && it.hasNext()) {
        rows.add(it.next());
      }
    }
    return rows;
  }

  private static String describe(RowData row) {
    return "id=" + row.getLong(0) + " region=" + row.getString(1) + " amount=" + row.getDouble(2);
  }
}
