/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.SharedWriteBudget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The open data files of one table in one writer subtask: one {@link PartitionedDataWriter} per row
 * shape the table's records came in, all held to the subtask's shared budget.
 */
final class TableFiles implements AutoCloseable {

  private final String name;
  private final SharedWriteBudget budget;
  private final FileWriteOptions options;
  private final Configuration storageConf;
  private final String filePrefix;
  private final Map<ResolvedShape, PartitionedDataWriter> writers = new IdentityHashMap<>();
  private final List<DataFiles> completed = new ArrayList<>();

  /**
   * @param filePrefix starts the names of the table's files; unique to this writer instance
   */
  TableFiles(
      String name,
      SharedWriteBudget budget,
      FileWriteOptions options,
      Configuration storageConf,
      String filePrefix) {
    this.name = name;
    this.budget = budget;
    this.options = options;
    this.storageConf = storageConf;
    this.filePrefix = filePrefix;
  }

  String name() {
    return name;
  }

  /** The writer of rows of {@code shape}. */
  PartitionedDataWriter writerOf(ResolvedShape shape) {
    PartitionedDataWriter writer = writers.get(shape);
    if (writer == null) {
      writer =
          budget.newWriter(
              shape.layout(),
              storageConf,
              shape.locator().path(),
              options,
              filePrefix + "-s" + writers.size(),
              true);
      writers.put(shape, writer);
    }
    return writer;
  }

  /**
   * Completes the open files of every shape; they are handed on with the next {@link #flush}. The
   * writers stay, so a shape whose layout is forgotten keeps its file names.
   */
  void complete() throws IOException {
    for (PartitionedDataWriter writer : writers.values()) {
      DataFiles files = writer.flush();
      if (!files.isEmpty()) {
        completed.add(files);
      }
    }
  }

  /** Completes every open file and hands back all files completed since the last flush. */
  DataFiles flush() throws IOException {
    complete();
    DataFiles files = DataFiles.concat(completed);
    completed.clear();
    return files;
  }

  /** Abandons open files: nothing of them is ever committed. */
  @Override
  public void close() {
    writers.values().forEach(PartitionedDataWriter::close);
    writers.clear();
    completed.clear();
  }
}
