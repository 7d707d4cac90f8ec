package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.table.data.RowData;

/**
 * Streams rows into the open data file of their partition and, at every checkpoint, completes the
 * open files and hands them on as one {@link DeltaWriteResult}. Nothing is visible in the table
 * until the committer commits the checkpoint.
 */
final class DeltaSinkWriter implements CommittingSinkWriter<RowData, DeltaWriteResult> {

  private final PartitionedDataWriter files;
  private final DeltaSinkWriterMetrics metrics;

  DeltaSinkWriter(DeltaSinkConfig config, int subtask, SinkWriterMetricGroup metrics) {
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    String prefix = String.format("part-%05d-%s", subtask, UUID.randomUUID());
    try (var loader = ConnectorClassLoader.enter()) {
      this.files =
          new PartitionedDataWriter(
              config.layout(),
              config.storageConf(),
              config.tablePath(),
              config.writeOptions(),
              prefix);
    }
    this.metrics = new DeltaSinkWriterMetrics(metrics, config.tableName(), files);
  }

  @Override
  public void write(RowData row, Context context) throws IOException {
    try (var loader = ConnectorClassLoader.enter()) {
      files.write(row);
    }
    metrics.recordWritten();
  }

  @Override
  public void flush(boolean endOfInput) {
    // Files are completed in prepareCommit, which Flink calls right after this.
  }

  @Override
  public Collection<DeltaWriteResult> prepareCommit() throws IOException {
    DataFiles completed;
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      completed = files.flush();
    }
    metrics.flushed((System.nanoTime() - started) / 1_000_000);
    if (completed.isEmpty()) {
      return List.of();
    }
    metrics.filesCompleted(completed);
    return List.of(new DeltaWriteResult(completed));
  }

  @Override
  public void close() {
    try (var loader = ConnectorClassLoader.enter()) {
      files.close();
    }
  }
}
