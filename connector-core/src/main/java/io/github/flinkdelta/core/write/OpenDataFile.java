/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.DataFileWriter;
import io.github.flinkdelta.core.parquet.WrittenFile;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.table.data.RowData;

/** A data file being written for one partition, and its share of the writer's memory budget. */
final class OpenDataFile {

  private final String path;
  private final long id;
  private final Map<String, String> partitionValues;
  private final DataFileWriter writer;
  private final MemoryBudget.Share memory;

  /**
   * @param path the file's path relative to the table root
   * @param partitionValues the partition values every row of the file has
   */
  OpenDataFile(
      String path,
      Map<String, String> partitionValues,
      DataFileWriter writer,
      MemoryBudget.Share memory) {
    this.path = path;
    this.id = FileIds.of(path);
    this.partitionValues = partitionValues;
    this.writer = writer;
    this.memory = memory;
  }

  /** The file's {@link FileIds id}. */
  long id() {
    return id;
  }

  void write(RowData row) throws IOException {
    writer.write(row);
  }

  long numRecords() {
    return writer.numRecords();
  }

  /** The heap the file was last measured to hold. */
  long heapBytes() {
    return memory.bytes();
  }

  /**
   * Measures the file: its share of the budget becomes the heap it holds now.
   *
   * @return the bytes written to storage plus those still buffered
   */
  long measure() {
    long dataSize = writer.dataSize();
    memory.resize(writer.heapBytes(dataSize));
    return dataSize;
  }

  /** Completes the file; its memory returns to the budget. */
  DataFile finish() throws IOException {
    memory.release();
    WrittenFile written = writer.finish();
    return new DataFile(
        path, written.sizeBytes(), written.numRecords(), partitionValues, written.statsJson());
  }

  /** Closes the file without completing it; it is never committed. */
  void abandon() {
    memory.release();
    writer.close();
  }
}
