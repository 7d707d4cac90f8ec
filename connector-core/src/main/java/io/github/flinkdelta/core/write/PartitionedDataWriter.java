/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.DataFileWriter;
import io.github.flinkdelta.core.parquet.DictionaryChoices;
import io.github.flinkdelta.core.parquet.NullValueException;
import io.github.flinkdelta.core.storage.StorageScopes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes the rows of one writer subtask into data files: one file per partition, rolled on size and
 * row count, with the memory of all partitions held to a {@link MemoryBudget}.
 *
 * <p>A partition's first rows are held encoded ({@link HeldRowBuffer}) until they would cost as
 * much as an open file. With many partitions of few rows each (high-cardinality partition columns),
 * a checkpoint then still writes one file per partition, as long as the budget holds their rows.
 * When the budget is exceeded, the partitions holding the most memory are completed as files, never
 * dropped. Rows with array or map columns always go straight to open files.
 *
 * <p>{@link #flush()} completes every open file and hands back all files finished since the last
 * flush; the sink calls it at every checkpoint.
 */
@Internal
public final class PartitionedDataWriter implements AutoCloseable {

  /** Rows between two looks at an open file's size. */
  private static final int SIZE_CHECK_ROWS = 16;

  private final FileLayout layout;
  private final Configuration conf;
  private final Path tableRoot;
  private final FileWriteOptions options;
  private final String filePrefix;
  private final String fileSuffix;
  private final RowData.FieldGetter[] partitionGetters;
  private final MemoryBudget budget;

  /** The writers that share {@link #budget} with this one; null when it has a budget alone. */
  private final SharedWriteBudget shared;

  private final Map<PartitionKey, OpenDataFile> openFiles = new HashMap<>();
  private final HeldRowBuffer heldRows;
  private final DictionaryChoices dictionaries = new DictionaryChoices();
  private DataFiles.Builder completed = DataFiles.builder();
  private OpenDataFile unpartitioned;
  private long fileCounter;

  /** {@link #openFiles} plus {@link #unpartitioned}, for readers on other threads (metrics). */
  private final AtomicInteger openFileCount = new AtomicInteger();

  private final StorageScopes.Lease storage;

  /**
   * @param tableRoot the table's root directory
   * @param filePrefix starts every file name; it must be unique to this writer instance
   */
  public PartitionedDataWriter(
      FileLayout layout,
      Configuration conf,
      String tableRoot,
      FileWriteOptions options,
      String filePrefix) {
    this(layout, conf, tableRoot, options, filePrefix, true);
  }

  /**
   * @param holdRows whether a partition's first rows may be held before the partition gets a file;
   *     a writer that must know where each row lands ({@link #append}) holds none
   */
  public PartitionedDataWriter(
      FileLayout layout,
      Configuration conf,
      String tableRoot,
      FileWriteOptions options,
      String filePrefix,
      boolean holdRows) {
    this(layout, conf, tableRoot, options, filePrefix, holdRows, null);
  }

  /**
   * @param shared the budget this writer shares with others, or null for one of its own sized by
   *     {@code options}
   */
  PartitionedDataWriter(
      FileLayout layout,
      Configuration conf,
      String tableRoot,
      FileWriteOptions options,
      String filePrefix,
      boolean holdRows,
      SharedWriteBudget shared) {
    this.layout = layout;
    this.conf = conf;
    this.tableRoot = new Path(tableRoot);
    this.options = options;
    this.filePrefix = filePrefix;
    this.fileSuffix = options.parquet().fileSuffix();
    this.shared = shared;
    this.budget = shared == null ? new MemoryBudget(options.bufferBudgetBytes()) : shared.budget();
    List<PartitionColumn> partitions = layout.partitionColumns();
    this.partitionGetters = new RowData.FieldGetter[partitions.size()];
    for (int i = 0; i < partitionGetters.length; i++) {
      // The getter of the nullable type checks for null, so a null in a NOT NULL partition column
      // is named (see partitionKey); Flink 1.20's getter of a NOT NULL type does not check.
      partitionGetters[i] =
          RowData.createFieldGetter(
              partitions.get(i).type().copy(true), partitions.get(i).position());
    }
    this.heldRows =
        holdRows && layout.isPartitioned()
            ? RowCopier.forLayout(layout)
                .map(copier -> new HeldRowBuffer(copier, budget, options.maxRowsPerFile()))
                .orElse(null)
            : null;
    this.storage = StorageScopes.lease(conf);
  }

  /** Writes one row into its partition's open file, or holds it until the partition has one. */
  public void write(RowData row) throws IOException {
    if (!layout.isPartitioned()) {
      if (unpartitioned == null) {
        unpartitioned = open(null);
        openFilesChanged();
      }
      write(null, unpartitioned, layout.dataRow(row));
      return;
    }
    PartitionKey key = partitionKey(row);
    row = layout.dataRow(row);
    OpenDataFile file = openFiles.get(key);
    if (file != null) {
      write(key, file, row);
    } else if (heldRows != null) {
      PartitionKey full = heldRows.hold(key, row);
      if (full != null) {
        giveOpenFile(full);
      }
      enforceBudget();
    } else {
      key = key.copy();
      file = open(key);
      openFiles.put(key, file);
      openFilesChanged();
      write(key, file, row);
    }
  }

  /**
   * Writes one row straight into its partition's open file and says where it landed: the file's id
   * ({@link FileIds}) and the row's position in it. Only for a writer that holds no rows.
   */
  public RowLocation append(RowData row) throws IOException {
    if (heldRows != null) {
      throw new IllegalStateException("A writer that holds rows cannot say where they land");
    }
    PartitionKey key = null;
    OpenDataFile file;
    if (!layout.isPartitioned()) {
      if (unpartitioned == null) {
        unpartitioned = open(null);
        openFilesChanged();
      }
      file = unpartitioned;
    } else {
      key = partitionKey(row);
      file = openFiles.get(key);
      if (file == null) {
        key = key.copy();
        file = open(key);
        openFiles.put(key, file);
        openFilesChanged();
      }
    }
    RowLocation location = new RowLocation(file.id(), file.numRecords());
    write(key, file, layout.dataRow(row));
    return location;
  }

  private void write(PartitionKey key, OpenDataFile file, RowData row) throws IOException {
    file.write(row);
    boolean full = file.numRecords() >= options.maxRowsPerFile();
    // Asking Parquet for its buffered size walks every column; rows are small, so every few rows
    // is close enough for rolling and the budget. A new file is measured at its first row.
    if (full || file.numRecords() % SIZE_CHECK_ROWS == 1) {
      full |= file.measure() >= options.targetFileSizeBytes();
      if (full) {
        complete(key, file);
      }
      enforceBudget();
    }
  }

  /** Moves a partition's held rows into a new open file, completed at once if they fill it. */
  private void giveOpenFile(PartitionKey key) throws IOException {
    OpenDataFile file = fileOfHeldRows(key);
    if (file.numRecords() < options.maxRowsPerFile()) {
      openFiles.put(key, file);
      openFilesChanged();
      file.measure();
    } else {
      completed.add(file.finish());
    }
  }

  private void enforceBudget() throws IOException {
    if (budget.exceeded()) {
      if (shared == null) {
        shrink();
      } else {
        shared.shrink();
      }
    }
  }

  /**
   * Completes every open file and returns the files finished since the last flush. Files are kept
   * deflated from the moment they are finished, so a checkpoint of many files costs little heap.
   */
  public DataFiles flush() throws IOException {
    if (unpartitioned != null) {
      complete(null, unpartitioned);
    }
    for (Map.Entry<PartitionKey, OpenDataFile> entry : List.copyOf(openFiles.entrySet())) {
      complete(entry.getKey(), entry.getValue());
    }
    if (heldRows != null) {
      for (PartitionKey key : heldRows.partitions()) {
        completeHeld(key);
      }
    }
    DataFiles files = completed.build();
    completed = DataFiles.builder();
    return files;
  }

  /** The files open now; safe to read from any thread. */
  public int openFileCount() {
    return openFileCount.get();
  }

  private void openFilesChanged() {
    openFileCount.lazySet(openFiles.size() + (unpartitioned == null ? 0 : 1));
  }

  /**
   * The memory held by the budget's measure: the open files' encoded, unflushed bytes plus a fixed
   * overhead per open file, and the estimated size of held rows, of every writer that shares the
   * budget. Safe to read from any thread.
   */
  public long bufferedBytes() {
    return budget.usedBytes();
  }

  /** The heap this writer's open files and held rows take, by the budget's measure. */
  long heldBytes() {
    long bytes = unpartitioned == null ? 0 : unpartitioned.heapBytes();
    for (OpenDataFile file : openFiles.values()) {
      bytes += file.heapBytes();
    }
    if (heldRows != null) {
      for (PartitionKey key : heldRows.partitions()) {
        bytes += heldRows.heapBytes(key);
      }
    }
    return bytes;
  }

  /** Abandons open files and held rows: nothing of them is ever committed. */
  @Override
  public void close() {
    if (shared != null) {
      shared.closed(this);
    }
    if (unpartitioned != null) {
      unpartitioned.abandon();
      unpartitioned = null;
    }
    openFiles.values().forEach(OpenDataFile::abandon);
    openFiles.clear();
    openFilesChanged();
    if (heldRows != null) {
      heldRows.clear();
    }
    completed.close();
    storage.close();
  }

  private OpenDataFile open(PartitionKey key) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    StringBuilder dir = new StringBuilder();
    List<PartitionColumn> partitions = layout.partitionColumns();
    for (int i = 0; i < partitions.size(); i++) {
      PartitionColumn column = partitions.get(i);
      Object value = key.values()[i];
      String text = value == null ? null : PartitionValues.format(value, column.type());
      values.put(column.name(), text);
      dir.append(PartitionValues.directory(column.directoryName(), text)).append('/');
    }
    String name = dir + filePrefix + "-" + String.format("%05d", fileCounter++) + fileSuffix;
    DataFileWriter writer =
        new DataFileWriter(
            layout.data(), conf, new Path(tableRoot, name), options.parquet(), dictionaries);
    return new OpenDataFile(name, values, writer, budget.share());
  }

  private void complete(PartitionKey key, OpenDataFile file) throws IOException {
    if (key == null) {
      unpartitioned = null;
    } else {
      openFiles.remove(key);
    }
    openFilesChanged();
    completed.add(file.finish());
  }

  private void completeHeld(PartitionKey key) throws IOException {
    completed.add(fileOfHeldRows(key).finish());
  }

  /** A new open file holding the partition's held rows, which the buffer forgets. */
  private OpenDataFile fileOfHeldRows(PartitionKey key) throws IOException {
    OpenDataFile file = open(key);
    try {
      heldRows.moveTo(key, file);
    } catch (IOException | RuntimeException e) {
      file.abandon();
      throw e;
    }
    return file;
  }

  /**
   * Completes the partitions that hold the most memory, largest first, until the budget has shrunk
   * enough ({@link MemoryBudget#shrunkEnough()}).
   */
  void shrink() throws IOException {
    if (unpartitioned != null) {
      complete(null, unpartitioned);
      return;
    }
    record Holder(long bytes, PartitionKey key, boolean held) {}
    List<Holder> holders = new ArrayList<>();
    openFiles.forEach((key, file) -> holders.add(new Holder(file.heapBytes(), key, false)));
    if (heldRows != null) {
      for (PartitionKey key : heldRows.partitions()) {
        holders.add(new Holder(heldRows.heapBytes(key), key, true));
      }
    }
    holders.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
    for (Holder holder : holders) {
      if (budget.shrunkEnough()) {
        return;
      }
      if (holder.held()) {
        completeHeld(holder.key());
      } else {
        complete(holder.key(), openFiles.get(holder.key()));
      }
    }
  }

  /**
   * The row's partition values.
   *
   * @throws NullValueException when a NOT NULL partition column holds a null (partition values are
   *     not in the file, so the file writer never sees them)
   */
  private PartitionKey partitionKey(RowData row) {
    Object[] values = new Object[partitionGetters.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = partitionGetters[i].getFieldOrNull(row);
      PartitionColumn column = layout.partitionColumns().get(i);
      if (values[i] == null && !column.type().isNullable()) {
        throw new NullValueException(layout.tableName(), column.name());
      }
      if (PartitionValues.isEmpty(values[i])) {
        if (column.refusesEmpty()) {
          throw new EmptyPartitionValueException(layout.tableName(), column.name());
        }
        // Delta stores an empty partition value as null: written so, every reader agrees.
        values[i] = null;
      }
    }
    return new PartitionKey(values);
  }
}
