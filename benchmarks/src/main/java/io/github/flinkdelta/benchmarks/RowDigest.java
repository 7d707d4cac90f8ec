/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.BitSet;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

/**
 * An order-independent digest of {@link BenchmarkRows}: which event ids came (each of 0 to {@code
 * rows - 1} once, none other) and a checksum over every column of every row, so that a table read
 * back can be compared with the rows generated, whatever files and order its rows are in.
 */
final class RowDigest {

  private final long expectedRows;
  private final BitSet ids;
  private long rows;
  private long duplicates;
  private long outOfRange;
  private long checksum;

  /**
   * What a digest found: rows seen, event ids seen twice or more, ids never generated, ids missing,
   * and the checksum.
   */
  record Contents(long rows, long duplicates, long outOfRange, long missing, long checksum) {

    /** Whether these are exactly the {@code expected} rows. */
    boolean matches(Contents expected) {
      return duplicates == 0 && outOfRange == 0 && missing == 0 && equals(expected);
    }

    String describe() {
      return String.format(
          "%,d rows (checksum %016x): %,d ids missing, %,d seen more than once, %,d never"
              + " generated",
          rows, checksum, missing, duplicates, outOfRange);
    }
  }

  /** A digest of rows whose event ids should be 0 to {@code expectedRows - 1}. */
  RowDigest(long expectedRows) {
    if (expectedRows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many rows to check: " + expectedRows);
    }
    this.expectedRows = expectedRows;
    this.ids = new BitSet((int) expectedRows);
  }

  /** The digest of rows 0 to {@code rows - 1} as the benchmark generates them. */
  static Contents ofGenerated(long rows) {
    RowDigest digest = new RowDigest(rows);
    for (long i = 0; i < rows; i++) {
      digest.add(BenchmarkRows.row(i));
    }
    return digest.contents();
  }

  /** Adds a row of {@link BenchmarkRows#TYPE}. */
  void add(RowData row) {
    TimestampData time = row.getTimestamp(8, 6);
    add(
        row.getLong(0),
        row.isNullAt(1) ? null : row.getLong(1),
        row.getString(2).toString(),
        row.getString(3).toString(),
        row.getString(4).toString(),
        row.getString(5).toString(),
        row.getDouble(6),
        row.getDouble(7),
        time.getMillisecond() * 1_000 + time.getNanoOfMillisecond() / 1_000,
        row.getDecimal(9, 18, 2).toUnscaledLong());
  }

  /** Adds a row given by its column values; the timestamp in microseconds since the epoch. */
  void add(
      long eventId,
      Long userId,
      String sessionId,
      String country,
      String url,
      String userAgent,
      double price,
      double score,
      long eventTimeMicros,
      long amountUnscaled) {
    rows++;
    if (eventId < 0 || eventId >= expectedRows) {
      outOfRange++;
    } else if (ids.get((int) eventId)) {
      duplicates++;
    } else {
      ids.set((int) eventId);
    }
    long hash = eventId;
    hash = hash * 31 + (userId == null ? 0x5bd1e995L : userId);
    hash = hash * 31 + sessionId.hashCode();
    hash = hash * 31 + country.hashCode();
    hash = hash * 31 + url.hashCode();
    hash = hash * 31 + userAgent.hashCode();
    hash = hash * 31 + Double.doubleToLongBits(price);
    hash = hash * 31 + Double.doubleToLongBits(score);
    hash = hash * 31 + eventTimeMicros;
    hash = hash * 31 + amountUnscaled;
    checksum += mix(hash);
  }

  Contents contents() {
    long seen = ids.cardinality();
    return new Contents(rows, duplicates, outOfRange, expectedRows - seen, checksum);
  }

  /** SplitMix64's finaliser: near rows give far hashes, so that their sum tells rows apart. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
