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
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes the rows of one writer subtask into data files: one open file per partition, rolled on
 * size and row count, with the bytes buffered by all open files held to a budget. When the budget
 * is exceeded the largest open file is completed, never dropped.
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

  private final Map<PartitionKey, DataFileWriter> openFiles = new HashMap<>();
  private final List<DataFile> completed = new ArrayList<>();
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
  }

  /** Writes one row into the open file of its partition. */
  public void write(RowData row) throws IOException {
    DataFileWriter file;
    PartitionKey key = null;
    if (layout.isPartitioned()) {
      key = partitionKey(row);
      file = openFiles.get(key);
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

    file.write(row);
    long dataSize = file.dataSize();
    long buffered = file.bufferedBytes(dataSize);
    bufferedBytes += buffered - file.accountedBytes;
    file.accountedBytes = buffered;
    if (dataSize >= options.targetFileSizeBytes()
        || file.numRecords() >= options.maxRowsPerFile()) {
      complete(key, file);
    }
    while (bufferedBytes > options.bufferBudgetBytes() && openFileCount() > 0) {
      completeLargest();
    }
  }

  /** Completes every open file and returns the files finished since the last flush. */
  public List<DataFile> flush() throws IOException {
    if (unpartitioned != null) {
      complete(null, unpartitioned);
    }
    for (Map.Entry<PartitionKey, DataFileWriter> entry : List.copyOf(openFiles.entrySet())) {
      complete(entry.getKey(), entry.getValue());
    }
    List<DataFile> files = List.copyOf(completed);
    completed.clear();
    return files;
  }

  public int openFileCount() {
    return openFiles.size() + (unpartitioned == null ? 0 : 1);
  }

  /**
   * The memory the open files hold by the budget's measure: their encoded, unflushed bytes plus a
   * fixed overhead per open file.
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
    DataFileWriter file = new DataFileWriter(layout, conf, tableRoot, name, values, options);
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

  private void completeLargest() throws IOException {
    if (unpartitioned != null) {
      complete(null, unpartitioned);
      return;
    }
    PartitionKey largestKey = null;
    DataFileWriter largest = null;
    long largestBytes = -1;
    for (Map.Entry<PartitionKey, DataFileWriter> entry : openFiles.entrySet()) {
      long bytes = entry.getValue().accountedBytes;
      if (bytes > largestBytes) {
        largestBytes = bytes;
        largestKey = entry.getKey();
        largest = entry.getValue();
      }
    }
    complete(largestKey, largest);
  }

  private PartitionKey partitionKey(RowData row) {
    Object[] values = new Object[partitionGetters.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = partitionGetters[i].getFieldOrNull(row);
    }
    return new PartitionKey(values);
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
        if (value instanceof StringData string) {
          copies[i] = StringData.fromBytes(string.toBytes());
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
