package io.github.flinkdelta.core.parquet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes the rows of one writer subtask into data files: one file per partition, rolled on size and
 * row count, with the memory of all partitions held to a budget.
 *
 * <p>An open Parquet file costs about {@value DataFileWriter#OPEN_FILE_OVERHEAD_BYTES} bytes before
 * any data, so a partition's first rows are held encoded in byte arrays instead, and the partition
 * gets an open file only once its rows would take that much memory. With many partitions of few
 * rows each (high-cardinality partition columns), a checkpoint then still writes one file per
 * partition, as long as the budget holds their rows. When the budget is exceeded, the partition
 * holding the most memory is completed as a file, never dropped. Rows with array or map columns
 * always go straight to open files.
 *
 * <p>{@link #flush()} completes every open file and hands back all files finished since the last
 * flush; the sink calls it at every checkpoint.
 */
public final class PartitionedDataWriter implements AutoCloseable {

  private final FileLayout layout;
  private final Configuration conf;
  private final Path tableRoot;
  private final FileWriteOptions options;
  private final String filePrefix;
  private final String fileSuffix;
  private final RowData.FieldGetter[] partitionGetters;

  /** Rows between two looks at an open file's size. */
  private static final int SIZE_CHECK_ROWS = 16;

  /** The heap of a held row beyond its encoded bytes: array header and list slot. */
  private static final long HELD_ROW_OVERHEAD_BYTES = 24;

  /** The heap of a partition with held rows: its key, map entry and row list. */
  private static final long HELD_PARTITION_OVERHEAD_BYTES = 512;

  private final Map<PartitionKey, DataFileWriter> openFiles = new HashMap<>();
  private final Map<PartitionKey, HeldRows> heldRows = new HashMap<>();
  private final RowCopier copier;
  private final DictionaryChoices dictionaries = new DictionaryChoices();
  private DataFiles.Builder completed = DataFiles.builder();
  private DataFileWriter unpartitioned;
  private long bufferedBytes;
  private long fileCounter;

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
    this.layout = layout;
    this.conf = conf;
    this.tableRoot = new Path(tableRoot);
    this.options = options;
    this.filePrefix = filePrefix;
    this.fileSuffix = "." + options.compression().name().toLowerCase() + ".parquet";
    List<PartitionColumn> partitions = layout.partitionColumns();
    this.partitionGetters = new RowData.FieldGetter[partitions.size()];
    for (int i = 0; i < partitionGetters.length; i++) {
      partitionGetters[i] =
          RowData.createFieldGetter(partitions.get(i).type(), partitions.get(i).position());
    }
    this.copier = layout.isPartitioned() ? RowCopier.forLayout(layout).orElse(null) : null;
  }

  /** Writes one row into its partition's open file, or holds it until the partition has one. */
  public void write(RowData row) throws IOException {
    DataFileWriter file;
    PartitionKey key = null;
    if (layout.isPartitioned()) {
      key = partitionKey(row);
      file = openFiles.get(key);
      if (file == null && copier != null) {
        hold(key, row);
        return;
      }
      if (file == null) {
        key = key.copy();
        file = open(key);
        openFiles.put(key, file);
      }
    } else {
      if (unpartitioned == null) {
        unpartitioned = open(null);
      }
      file = unpartitioned;
    }
    write(key, file, row);
  }

  private void write(PartitionKey key, DataFileWriter file, RowData row) throws IOException {
    file.write(row);
    boolean full = file.numRecords() >= options.maxRowsPerFile();
    // Asking Parquet for its buffered size walks every column; rows are small, so every few rows
    // is close enough for rolling and the budget. A new file is counted at its first row.
    if (full || file.numRecords() % SIZE_CHECK_ROWS == 1) {
      long dataSize = file.dataSize();
      long buffered = file.bufferedBytes(dataSize);
      bufferedBytes += buffered - file.accountedBytes;
      file.accountedBytes = buffered;
      full |= dataSize >= options.targetFileSizeBytes();
      if (full) {
        complete(key, file);
      }
      enforceBudget();
    }
  }

  /**
   * Holds a copy of the row; a partition whose held rows reach the cost of an open file gets one,
   * with its held rows written first.
   */
  private void hold(PartitionKey key, RowData row) throws IOException {
    // Encoded first: a row refused for a null leaves nothing behind.
    byte[] encoded = copier.encode(row);
    HeldRows held = heldRows.get(key);
    if (held == null) {
      key = key.copy();
      held = new HeldRows(key);
      heldRows.put(key, held);
      held.bytes = HELD_PARTITION_OVERHEAD_BYTES;
      bufferedBytes += HELD_PARTITION_OVERHEAD_BYTES;
    }
    long size = encoded.length + HELD_ROW_OVERHEAD_BYTES;
    held.rows.add(encoded);
    held.bytes += size;
    bufferedBytes += size;
    if (held.bytes >= DataFileWriter.OPEN_FILE_OVERHEAD_BYTES
        || held.rows.size() >= options.maxRowsPerFile()) {
      DataFileWriter file = release(held);
      if (file.numRecords() < options.maxRowsPerFile()) {
        openFiles.put(held.key, file);
        file.accountedBytes = file.bufferedBytes(file.dataSize());
        bufferedBytes += file.accountedBytes;
      } else {
        completed.add(file.finish());
      }
    }
    enforceBudget();
  }

  /** Writes a partition's held rows into a new file and forgets them. */
  private DataFileWriter release(HeldRows held) throws IOException {
    heldRows.remove(held.key);
    bufferedBytes -= held.bytes;
    DataFileWriter file = open(held.key);
    try {
      for (byte[] heldRow : held.rows) {
        file.write(copier.decode(heldRow));
      }
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
    return file;
  }

  private void enforceBudget() throws IOException {
    if (bufferedBytes > options.bufferBudgetBytes()) {
      shrink();
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
    for (Map.Entry<PartitionKey, DataFileWriter> entry : List.copyOf(openFiles.entrySet())) {
      complete(entry.getKey(), entry.getValue());
    }
    for (HeldRows held : List.copyOf(heldRows.values())) {
      completed.add(release(held).finish());
    }
    DataFiles files = completed.build();
    completed = DataFiles.builder();
    return files;
  }

  public int openFileCount() {
    return openFiles.size() + (unpartitioned == null ? 0 : 1);
  }

  /**
   * The memory held by the budget's measure: the open files' encoded, unflushed bytes plus a fixed
   * overhead per open file, and the estimated size of held rows.
   */
  public long bufferedBytes() {
    return bufferedBytes;
  }

  /** Abandons open files: they are closed and never committed. */
  @Override
  public void close() {
    if (unpartitioned != null) {
      unpartitioned.close();
      unpartitioned = null;
    }
    openFiles.values().forEach(DataFileWriter::close);
    openFiles.clear();
    heldRows.clear();
    completed.close();
    bufferedBytes = 0;
  }

  private DataFileWriter open(PartitionKey key) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    StringBuilder dir = new StringBuilder();
    List<PartitionColumn> partitions = layout.partitionColumns();
    for (int i = 0; i < partitions.size(); i++) {
      PartitionColumn column = partitions.get(i);
      Object value = key.values[i];
      String text = value == null ? null : PartitionValues.format(value, column.type());
      values.put(column.name(), text);
      dir.append(PartitionValues.directory(column.directoryName(), text)).append('/');
    }
    String name = dir + filePrefix + "-" + String.format("%05d", fileCounter++) + fileSuffix;
    DataFileWriter file =
        new DataFileWriter(layout, conf, tableRoot, name, values, options, dictionaries);
    return file;
  }

  private void complete(PartitionKey key, DataFileWriter file) throws IOException {
    if (key == null) {
      unpartitioned = null;
    } else {
      openFiles.remove(key);
    }
    bufferedBytes -= file.accountedBytes;
    completed.add(file.finish());
  }

  /**
   * Completes the partitions that hold the most memory, largest first, until the held memory is
   * below nine tenths of the budget, so that a full budget is not paid for with one scan per row.
   */
  private void shrink() throws IOException {
    if (unpartitioned != null) {
      complete(null, unpartitioned);
      return;
    }
    record Holder(long bytes, PartitionKey key, DataFileWriter file, HeldRows held) {}
    List<Holder> holders = new ArrayList<>(openFiles.size() + heldRows.size());
    openFiles.forEach((key, file) -> holders.add(new Holder(file.accountedBytes, key, file, null)));
    heldRows.values().forEach(held -> holders.add(new Holder(held.bytes, held.key, null, held)));
    holders.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
    long target = options.bufferBudgetBytes() / 10 * 9;
    for (Holder holder : holders) {
      if (bufferedBytes <= target) {
        return;
      }
      if (holder.file() != null) {
        complete(holder.key(), holder.file());
      } else {
        completed.add(release(holder.held()).finish());
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
      if (values[i] == null && !layout.partitionColumns().get(i).type().isNullable()) {
        throw new NullValueException(layout.tableName(), layout.partitionColumns().get(i).name());
      }
    }
    return new PartitionKey(values);
  }

  /** A partition's first rows, encoded, and the heap they take. */
  private static final class HeldRows {
    private final PartitionKey key;
    private final List<byte[]> rows = new ArrayList<>();
    private long bytes;

    private HeldRows(PartitionKey key) {
      this.key = key;
    }
  }

  /**
   * The partition values of a row. Lookups use the row's own value objects; a key kept in the map
   * is a copy, because Flink may reuse the memory behind the row.
   */
  private record PartitionKey(Object[] values) {

    PartitionKey copy() {
      Object[] copies = new Object[values.length];
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        if (value instanceof BinaryStringData string) {
          // toBytes() may hand out the string's own array; copy() never does.
          copies[i] = string.copy();
        } else if (value instanceof DecimalData decimal) {
          copies[i] = decimal.copy();
        } else if (value instanceof byte[] bytes) {
          copies[i] = bytes.clone();
        } else {
          copies[i] = value;
        }
      }
      return new PartitionKey(copies);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof PartitionKey key && Arrays.deepEquals(values, key.values);
    }

    @Override
    public int hashCode() {
      return Arrays.deepHashCode(values);
    }
  }
}
