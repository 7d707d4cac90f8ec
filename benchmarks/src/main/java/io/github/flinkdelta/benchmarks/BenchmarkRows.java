/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.time.Instant;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The benchmark's row: a click event of ten columns and about 190 bytes of values (two longs, four
 * strings of 2, 36, 60 and 50 characters, two doubles, a microsecond timestamp and a decimal). Row
 * {@code i} is a pure function of {@code i}, so every contender receives the same data.
 */
public final class BenchmarkRows {

  /** The column the partitioned scenario partitions by; it takes {@link #COUNTRIES} values. */
  public static final String PARTITION_COLUMN = "country";

  public static final int COUNTRIES = 16;

  public static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new BigIntType(),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DoubleType(),
            new DoubleType(),
            new LocalZonedTimestampType(6),
            new DecimalType(18, 2)
          },
          new String[] {
            "event_id",
            "user_id",
            "session_id",
            PARTITION_COLUMN,
            "url",
            "user_agent",
            "price",
            "score",
            "event_time",
            "amount"
          });

  private static final long EPOCH_MILLIS = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
  private static final String[] AGENTS = {
    "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Fx",
    "Mozilla/5.0 (Macintosh) AppleWebKit/605.1 Saf",
    "Mozilla/5.0 (Windows NT 10.0; Win64) Chrome/131.0",
    "Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Pro)"
  };

  /**
   * Strings come from fixed pools, built once per JVM, so that generating a row costs little next
   * to writing it: the benchmark measures sinks, not the generator.
   */
  private static final StringData[] SESSIONS = pool(8_192, i -> session(i));

  private static final StringData[] URLS =
      pool(
          4_096,
          i ->
              "https://shop.example.com/catalog/item/"
                  + (i * 7_919 % 100_000)
                  + "?ref=home&pos="
                  + (i % 40));
  private static final StringData[] USER_AGENTS = pool(AGENTS.length, i -> AGENTS[i]);
  private static final StringData[] COUNTRY_CODES = pool(COUNTRIES, i -> country(i));

  private BenchmarkRows() {}

  /** The generator for Flink's {@code DataGeneratorSource}. */
  public static GeneratorFunction<Long, RowData> generator() {
    return BenchmarkRows::row;
  }

  public static RowData row(long i) {
    long user = (i * 2_654_435_761L) & 0xFFFFF;
    return GenericRowData.of(
        i,
        user,
        SESSIONS[(int) ((user + i / 50) & (SESSIONS.length - 1))],
        COUNTRY_CODES[(int) (i % COUNTRIES)],
        URLS[(int) ((i * 31) & (URLS.length - 1))],
        USER_AGENTS[(int) (user & 3)],
        (i % 10_000) / 100.0,
        (user % 1_000) / 7.0,
        TimestampData.fromEpochMillis(EPOCH_MILLIS + i, (int) (i % 1_000) * 1_000),
        DecimalData.fromUnscaledLong(i % 1_000_000, 18, 2));
  }

  /** Row {@code i} with {@code partition} as its partition value instead of a country. */
  public static RowData row(long i, String partition) {
    GenericRowData row = (GenericRowData) row(i);
    row.setField(TYPE.getFieldIndex(PARTITION_COLUMN), StringData.fromString(partition));
    return row;
  }

  static String country(long i) {
    return "C" + Character.forDigit((int) (i % COUNTRIES), 16);
  }

  private static StringData[] pool(int size, java.util.function.IntFunction<String> value) {
    StringData[] pool = new StringData[size];
    for (int i = 0; i < size; i++) {
      pool[i] = StringData.fromString(value.apply(i));
    }
    return pool;
  }

  private static String session(int i) {
    String hex = Long.toHexString(i * 2_654_435_761L + 1_000_003L);
    StringBuilder id = new StringBuilder(36).append("session-");
    for (int k = id.length(); k < 36; k++) {
      id.append(hex.charAt(k % hex.length()));
    }
    return id.toString();
  }
}
