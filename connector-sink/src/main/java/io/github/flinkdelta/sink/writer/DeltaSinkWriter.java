/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Streams rows into the open data file of their partition and, at every checkpoint, completes the
 * open files and hands them on as one {@link DeltaWriteResult}. Nothing is visible in the table
 * until the committer commits the checkpoint. An appending sink takes rows of kind {@code INSERT}
 * only: others fail the task, naming the table and the kind. (An upsert sink writes its rows in its
 * upsert operator and hands the results on through a writer of its own.)
 */
@Internal
public final class DeltaSinkWriter implements CommittingSinkWriter<RowData, DeltaWriteResult> {

  private final String tableName;
  private final PartitionedDataWriter files;
  private final DeltaSinkWriterMetrics metrics;

  public DeltaSinkWriter(DeltaSinkConfig config, int subtask, SinkWriterMetricGroup metrics) {
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    String prefix = String.format("part-%05d-%s", subtask, UUID.randomUUID());
    this.tableName = config.tableName();
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
    if (row.getRowKind() != RowKind.INSERT) {
      // Appended as an insert, an update or delete would leave the row it changes in the table.
      throw new IllegalArgumentException(SinkErrors.notAnInsert(tableName, row.getRowKind()));
    }
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
