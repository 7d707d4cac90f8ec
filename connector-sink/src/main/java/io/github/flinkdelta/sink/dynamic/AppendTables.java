/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.SharedWriteBudget;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.types.RowKind;

/**
 * The tables a dynamic sink appends to, in one writer subtask: streams every record into an open
 * data file of its table, all tables' files held to one memory budget, and at each checkpoint
 * completes them and hands on one {@link DynamicWriteResult} per table with rows.
 *
 * <p>Tables are found, created and evolved by a {@link DynamicTableResolver} before the first row
 * of a new shape is written, and changes the generator hands on ({@link TableChange}) are applied
 * by {@link TableChangeApplier} in order with the rows. A table not written for a while is closed
 * once more than {@link DynamicSinkOptions#MAX_CACHED_TABLES} are open: its files are completed
 * then and handed on at the next checkpoint.
 */
final class AppendTables implements AutoCloseable {

  private final DynamicSinkConfig config;
  private final DynamicTableResolver resolver;
  private final TableChangeApplier changes;
  private final SharedWriteBudget budget;
  private final String filePrefix;
  private final int maxTables;
  private final Map<String, TableFiles> tables = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<String, List<DataFiles>> evicted = new LinkedHashMap<>();
  private final Counter recordsOut;
  private final Counter filesWritten;
  private final Counter bytesWritten;
  private long tablesOpened;

  /** The last record's shape and writer: consecutive records of one table skip the lookups. */
  private DynamicTable lastShape;

  private PartitionedDataWriter lastWriter;

  /** The view the last record's rows are written through; null when they fit as they are. */
  private ProjectedRowData lastProjection;

  /**
   * @param resolver finds, creates and evolves the tables; shared with the subtask's changes
   * @param metrics the group of the operator that appends
   */
  AppendTables(
      DynamicSinkConfig config,
      DynamicTableResolver resolver,
      int subtask,
      Counter recordsOut,
      MetricGroup metrics) {
    this.config = config;
    this.resolver = resolver;
    this.changes = new TableChangeApplier(config, resolver);
    Configuration options = config.sinkOptions();
    this.budget = new SharedWriteBudget(options.get(DeltaSinkOptions.BUFFER_BUDGET).getBytes());
    this.maxTables = options.get(DynamicSinkOptions.MAX_CACHED_TABLES);
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    this.filePrefix = String.format("part-%05d-%s", subtask, UUID.randomUUID());
    this.recordsOut = recordsOut;
    MetricGroup delta = metrics.addGroup("delta");
    this.filesWritten = delta.counter("numDataFilesWritten");
    this.bytesWritten = delta.counter("numDataBytesWritten");
    delta.gauge("openTables", tables::size);
    delta.gauge("bufferedBytes", budget::usedBytes);
  }

  /** Writes {@code record}, an {@code INSERT} row, into an open file of its table. */
  void write(DynamicRecord record) throws IOException {
    if (record.row().getRowKind() != RowKind.INSERT) {
      throw new IllegalArgumentException(
          SinkErrors.notAnInsert(record.table().name(), record.row().getRowKind()));
    }
    try (var loader = ConnectorClassLoader.enter()) {
      if (record.table() != lastShape) {
        ResolvedShape resolved = resolver.resolve(record.table());
        lastWriter = writerOf(record.table().name(), resolved);
        lastProjection = resolved.projection();
        lastShape = record.table();
      }
      lastWriter.write(
          lastProjection == null ? record.row() : lastProjection.replaceRow(record.row()));
    }
    recordsOut.inc();
  }

  /**
   * Applies {@code change} to its table, after the rows written before it.
   *
   * @return the truncation or drop to commit after the checkpoint's rows, or null (see {@link
   *     TableChangeApplier#apply})
   */
  HeldRecords.TableEvent apply(TableChange change) throws IOException {
    lastShape = null;
    lastWriter = null;
    return changes.apply(change, tables.get(change.table()));
  }

  /**
   * Forgets table {@code table}, which was dropped: its next record finds or creates the table
   * anew. Its files went on with the checkpoint that dropped it.
   */
  void forget(String table) {
    lastShape = null;
    lastWriter = null;
    resolver.forget(table);
    TableFiles files = tables.remove(table);
    if (files != null) {
      try (var loader = ConnectorClassLoader.enter()) {
        files.close();
      }
    }
  }

  private PartitionedDataWriter writerOf(String table, ResolvedShape resolved) throws IOException {
    TableFiles files = tables.get(table);
    if (files == null) {
      files =
          new TableFiles(
              table,
              budget,
              FileWriteOptions.from(config.optionsOf(table)),
              resolved.locator().storageConf(config.hadoopConf()),
              filePrefix + "-t" + tablesOpened++);
      tables.put(table, files);
      evictLeastRecentlyUsed();
    }
    return files.writerOf(resolved);
  }

  /** Completes and closes the files of the tables used least recently beyond the cache's size. */
  private void evictLeastRecentlyUsed() throws IOException {
    Iterator<TableFiles> it = tables.values().iterator();
    while (tables.size() > maxTables) {
      TableFiles eldest = it.next();
      DataFiles files = eldest.flush();
      if (!files.isEmpty()) {
        evicted.computeIfAbsent(eldest.name(), name -> new ArrayList<>()).add(files);
      }
      eldest.close();
      it.remove();
    }
  }

  /** Completes every open file and hands on each table's files since the last call. */
  Collection<DynamicWriteResult> prepareCommit() throws IOException {
    Map<String, List<DataFiles>> byTable = new LinkedHashMap<>(evicted);
    evicted.clear();
    try (var loader = ConnectorClassLoader.enter()) {
      for (TableFiles files : tables.values()) {
        DataFiles completed = files.flush();
        if (!completed.isEmpty()) {
          byTable.computeIfAbsent(files.name(), name -> new ArrayList<>()).add(completed);
        }
      }
    }
    List<DynamicWriteResult> results = new ArrayList<>(byTable.size());
    byTable.forEach(
        (table, parts) -> {
          DataFiles files = DataFiles.concat(parts);
          filesWritten.inc(files.size());
          bytesWritten.inc(files.sizeBytes());
          results.add(new DynamicWriteResult(table, files));
        });
    return results;
  }

  @Override
  public void close() {
    try (var loader = ConnectorClassLoader.enter()) {
      tables.values().forEach(TableFiles::close);
      tables.clear();
    }
  }
}
