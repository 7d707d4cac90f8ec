package io.github.flinkdelta.benchmarks;

import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;

/**
 * A sink that drops every row and counts it, so that a read is measured without a writer's cost.
 * Its writers run on the embedded cluster in this JVM and add their counts up in {@link #rows()}.
 */
final class CountingSink implements Sink<RowData> {

  private static final long serialVersionUID = 1L;

  private static final LongAdder ROWS = new LongAdder();

  /** The rows every writer in this JVM has taken. */
  static long rows() {
    return ROWS.sum();
  }

  @Override
  public SinkWriter<RowData> createWriter(WriterInitContext context) {
    return new SinkWriter<>() {
      private long rows;

      @Override
      public void write(RowData row, Context context) {
        rows++;
      }

      @Override
      public void flush(boolean endOfInput) {
        ROWS.add(rows);
        rows = 0;
      }

      @Override
      public void close() {
        flush(true);
      }
    };
  }
}
