/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * A sink of {@link BenchmarkRows} that reads every value of every row, folds them into a checksum,
 * and drops the row; the comparison's limit and the read benchmark's end of the job. Reading the
 * values is what any sink must do; a sink that ignored its rows would let the JIT compiler drop
 * Flink's copy of each row as dead code (a copy nobody reads), and measure less than the job costs.
 * The checksum and the rows are published per writer at each flush, so that nothing read is dead.
 */
final class ValueReadingSink implements Sink<RowData> {

  private static final long serialVersionUID = 1L;

  private static final LongAdder ROWS = new LongAdder();

  /** Where the writers' checksums go, so that the values read are never dead. */
  private static final LongAdder CHECKSUM = new LongAdder();

  /** The rows every writer in this JVM has taken. */
  static long rows() {
    return ROWS.sum();
  }

  @Override
  public SinkWriter<RowData> createWriter(WriterInitContext context) {
    return new SinkWriter<>() {
      private long rows;
      private long checksum;

      @Override
      public void write(RowData row, Context context) {
        rows++;
        checksum = checksum * 31 + read(row);
      }

      @Override
      public void flush(boolean endOfInput) {
        ROWS.add(rows);
        CHECKSUM.add(checksum);
        rows = 0;
        checksum = 0;
      }

      @Override
      public void close() {
        flush(true);
      }
    };
  }

  /**
   * A value depending on every field of a row: a long's or double's bits, a string's length and
   * first byte (reading one byte of a copied string makes the copy of all its bytes live), a
   * timestamp's milliseconds, a decimal's unscaled value.
   */
  private static long read(RowData row) {
    long value = row.getLong(0) ^ row.getLong(1);
    for (int field = 2; field <= 5; field++) {
      BinaryStringData string = (BinaryStringData) row.getString(field);
      value = value * 31 + string.getSizeInBytes() + string.byteAt(0);
    }
    value = value * 31 + Double.doubleToRawLongBits(row.getDouble(6));
    value = value * 31 + Double.doubleToRawLongBits(row.getDouble(7));
    value = value * 31 + row.getTimestamp(8, 6).getMillisecond();
    return value * 31 + row.getDecimal(9, 18, 2).toUnscaledLong();
  }
}
