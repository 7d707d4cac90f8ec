package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer's metrics, registered once: Flink's standard records and bytes out, and under group
 * {@code delta} / {@code table=<name>} the data files and bytes written, the open files and the
 * bytes they buffer, and how long the last checkpoint's flush (completing the open files) took.
 */
final class DeltaSinkWriterMetrics {

  private final Counter recordsOut;
  private final Counter bytesOut;
  private final Counter filesWritten;
  private final Counter dataBytesWritten;
  private volatile long lastFlushDurationMs = -1;

  DeltaSinkWriterMetrics(SinkWriterMetricGroup metrics, String table, PartitionedDataWriter files) {
    this.recordsOut = metrics.getNumRecordsSendCounter();
    this.bytesOut = metrics.getNumBytesSendCounter();
    MetricGroup delta = metrics.addGroup("delta").addGroup("table", table);
    this.filesWritten = delta.counter("numDataFilesWritten");
    this.dataBytesWritten = delta.counter("numDataBytesWritten");
    delta.gauge("openFiles", files::openFileCount);
    delta.gauge("bufferedBytes", files::bufferedBytes);
    delta.gauge("lastFlushDurationMs", () -> lastFlushDurationMs);
  }

  void recordWritten() {
    recordsOut.inc();
  }

  void flushed(long durationMs) {
    lastFlushDurationMs = durationMs;
  }

  void filesCompleted(DataFiles completed) {
    filesWritten.inc(completed.size());
    dataBytesWritten.inc(completed.sizeBytes());
    bytesOut.inc(completed.sizeBytes());
  }
}
