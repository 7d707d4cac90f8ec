package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import io.github.flinkdelta.core.parquet.PartitionedDataWriter;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer's metrics, registered once: Flink's standard records and bytes out, and under group
 * {@code delta} / {@code table=<name>} the data files and bytes written, the open files and the
 * bytes they buffer.
 */
final class DeltaSinkWriterMetrics {

  private final Counter recordsOut;
  private final Counter bytesOut;
  private final Counter filesWritten;
  private final Counter dataBytesWritten;

  DeltaSinkWriterMetrics(SinkWriterMetricGroup metrics, String table, PartitionedDataWriter files) {
    this.recordsOut = metrics.getNumRecordsSendCounter();
    this.bytesOut = metrics.getNumBytesSendCounter();
    MetricGroup delta = metrics.addGroup("delta").addGroup("table", table);
    this.filesWritten = delta.counter("numDataFilesWritten");
    this.dataBytesWritten = delta.counter("numDataBytesWritten");
    delta.gauge("openFiles", files::openFileCount);
    delta.gauge("bufferedBytes", files::bufferedBytes);
  }

  void recordWritten() {
    recordsOut.inc();
  }

  void filesCompleted(List<DataFile> completed) {
    for (DataFile file : completed) {
      filesWritten.inc();
      dataBytesWritten.inc(file.sizeBytes());
      bytesOut.inc(file.sizeBytes());
    }
  }
}
