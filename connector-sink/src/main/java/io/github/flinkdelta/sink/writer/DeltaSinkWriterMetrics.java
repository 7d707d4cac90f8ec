/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer's metrics, registered once: Flink's standard records and bytes out, and under group
 * {@code delta} / {@code table=<name>} the data files and bytes written, the open files and the
 * bytes they buffer, and how long the last checkpoint's flush (completing the open files) took.
 */
@Internal
public final class DeltaSinkWriterMetrics {

  private final Counter recordsOut;
  private final Counter bytesOut;
  private final Counter filesWritten;
  private final Counter dataBytesWritten;
  private volatile long lastFlushDurationMs = -1;

  DeltaSinkWriterMetrics(SinkWriterMetricGroup metrics, String table, PartitionedDataWriter files) {
    this(
        metrics.getNumRecordsSendCounter(),
        metrics.getNumBytesSendCounter(),
        deltaGroup(metrics, table),
        files);
  }

  private DeltaSinkWriterMetrics(
      Counter recordsOut, Counter bytesOut, MetricGroup delta, PartitionedDataWriter files) {
    this.recordsOut = recordsOut;
    this.bytesOut = bytesOut;
    this.filesWritten = delta.counter("numDataFilesWritten");
    this.dataBytesWritten = delta.counter("numDataBytesWritten");
    delta.gauge("openFiles", files::openFileCount);
    delta.gauge("bufferedBytes", files::bufferedBytes);
    delta.gauge("lastFlushDurationMs", () -> lastFlushDurationMs);
  }

  /**
   * The metrics of an upsert sink's writer, an operator before the sink: the same under {@code
   * delta} / {@code table=<name>}, where the rows written and the bytes of completed files are
   * counted as {@code numRowsWritten} and {@code numBytesWritten}.
   */
  public static DeltaSinkWriterMetrics ofUpsertWriter(
      MetricGroup operator, String table, PartitionedDataWriter files) {
    MetricGroup delta = deltaGroup(operator, table);
    return new DeltaSinkWriterMetrics(
        delta.counter("numRowsWritten"), delta.counter("numBytesWritten"), delta, files);
  }

  /** The group {@code delta} / {@code table=<name>} under {@code metrics}. */
  public static MetricGroup deltaGroup(MetricGroup metrics, String table) {
    return metrics.addGroup("delta").addGroup("table", table);
  }

  public void recordWritten() {
    recordsOut.inc();
  }

  public void flushed(long durationMs) {
    lastFlushDurationMs = durationMs;
  }

  public void filesCompleted(DataFiles completed) {
    filesWritten.inc(completed.size());
    dataBytesWritten.inc(completed.sizeBytes());
    bytesOut.inc(completed.sizeBytes());
  }
}
