/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.kernel.ScanFiles;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.table.data.GenericRowData;

/**
 * A data file's rows through Kernel's Parquet reader, batch by batch: the reader of every file
 * {@link ParquetColumnRows} does not take (nested columns, timestamps stored as INT96, a column
 * stored as another type than its own or one it was widened from).
 */
final class KernelBatchRows implements DataFileRows {

  private final ReadColumns.Resolved columns;
  private final PartitionColumns partitions;
  private final CloseableIterator<FileReadResult> batches;

  private ColumnarBatch batch;
  private ColumnVector[] vectors;
  private int rowInBatch;

  private KernelBatchRows(
      ReadColumns.Resolved columns,
      PartitionColumns partitions,
      CloseableIterator<FileReadResult> batches) {
    this.columns = columns;
    this.partitions = partitions;
    this.batches = batches;
  }

  static KernelBatchRows open(
      Engine engine, ReadColumns.Resolved columns, ReadFile file, PartitionColumns partitions)
      throws IOException {
    return new KernelBatchRows(
        columns,
        partitions,
        engine
            .getParquetHandler()
            .readParquetFiles(
                ScanFiles.only(FileStatus.of(file.path(), file.size(), file.modificationTime())),
                columns.physical,
                Optional.empty()));
  }

  @Override
  public boolean loaded() {
    return batch != null && rowInBatch < batch.getSize();
  }

  @Override
  public boolean hasNext() {
    while (batch == null || rowInBatch >= batch.getSize()) {
      if (!batches.hasNext()) {
        return false;
      }
      batch = batches.next().getData();
      vectors = new ColumnVector[batch.getSchema().length()];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = batch.getColumnVector(i);
      }
      rowInBatch = 0;
    }
    return true;
  }

  @Override
  public GenericRowData next() {
    GenericRowData row = new GenericRowData(columns.types.length);
    for (int i = 0; i < columns.types.length; i++) {
      int source = columns.physicalIndex[i];
      if (source >= 0) {
        row.setField(i, columns.values[i].read(vectors[source], rowInBatch));
      }
    }
    partitions.set(row);
    rowInBatch++;
    return row;
  }

  @Override
  public void skip() {
    rowInBatch++;
  }

  @Override
  public void close() throws IOException {
    batches.close();
  }
}
