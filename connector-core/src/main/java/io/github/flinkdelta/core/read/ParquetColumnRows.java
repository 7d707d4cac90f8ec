/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.kernel.ColumnMappings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A data file's top-level columns read from their pages straight into rows ({@link
 * ColumnChunkReader}), one value at a time, without assembling records or filling column vectors
 * first. Rows are Flink's {@link BinaryRowData}: the form Flink copies between chained operators
 * and serializes between tasks without looking at each field.
 *
 * <p>Columns are found in the file as Kernel finds them: by field id when the table gives one and
 * the file has it, then by physical name, then by name ignoring case; a column the file does not
 * have (added to the table later) reads null. {@link #open} declines a file whose columns it cannot
 * convert exactly ({@link ParquetValue#of}); such files are read through Kernel.
 */
final class ParquetColumnRows implements DataFileRows {

  private final ParquetFileReader reader;
  private final MessageType requested;

  /** The row each value is written into, then copied out of. */
  private final BinaryRowData row;

  private final BinaryRowWriter writer;
  private final ParquetValue[] values;
  private final ColumnChunkReader[] columnReaders;

  /** The fields every row of this file has null: columns the file does not hold. */
  private final int[] absent;

  private final PartitionColumns partitions;

  private long leftInRowGroup;

  private ParquetColumnRows(
      ParquetFileReader reader,
      MessageType requested,
      BinaryRowData row,
      BinaryRowWriter writer,
      ParquetValue[] values,
      int[] absent,
      PartitionColumns partitions) {
    this.reader = reader;
    this.requested = requested;
    this.row = row;
    this.writer = writer;
    this.values = values;
    this.absent = absent;
    this.partitions = partitions;
    this.columnReaders = new ColumnChunkReader[values.length];
  }

  /**
   * Opens {@code file} to read {@code columns}, or returns null, having closed it, when a column is
   * stored in a way this reader does not convert.
   */
  static ParquetColumnRows open(
      Configuration conf, ReadColumns.Resolved columns, ReadFile file, PartitionColumns partitions)
      throws IOException {
    Path path = new Path(file.path());
    ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromStatus(
                new FileStatus(file.size(), false, 1, 0, file.modificationTime(), path), conf),
            HadoopReadOptions.builder(conf, path).build());
    try {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      BinaryRowData row = new BinaryRowData(columns.types.length);
      BinaryRowWriter writer = new BinaryRowWriter(row);
      List<Type> read = new ArrayList<>();
      List<ParquetValue> values = new ArrayList<>();
      List<Integer> absent = new ArrayList<>();
      for (int i = 0; i < columns.types.length; i++) {
        if (columns.physicalIndex[i] < 0) {
          continue;
        }
        Type stored = find(schema, columns.physical.at(columns.physicalIndex[i]));
        if (stored == null) {
          absent.add(i);
          continue;
        }
        ParquetValue value =
            stored.isPrimitive()
                    && !stored.isRepetition(Type.Repetition.REPEATED)
                    && !read.contains(stored)
                ? ParquetValue.of(columns.rowType.getTypeAt(i), stored.asPrimitiveType(), writer, i)
                : null;
        if (value == null) {
          reader.close();
          return null;
        }
        read.add(stored);
        values.add(value);
      }
      MessageType requested = new MessageType(schema.getName(), read);
      reader.setRequestedSchema(requested);
      return new ParquetColumnRows(
          reader,
          requested,
          row,
          writer,
          values.toArray(ParquetValue[]::new),
          absent.stream().mapToInt(Integer::intValue).toArray(),
          partitions);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** The field of {@code schema} that holds {@code column}, found as Kernel finds it, or null. */
  private static Type find(GroupType schema, StructField column) {
    Object id = column.getMetadata().get(ColumnMappings.PARQUET_FIELD_ID_KEY);
    if (id instanceof Number number) {
      for (Type field : schema.getFields()) {
        if (field.getId() != null && field.getId().intValue() == number.intValue()) {
          return field;
        }
      }
    }
    if (schema.containsField(column.getName())) {
      return schema.getType(column.getName());
    }
    for (Type field : schema.getFields()) {
      if (field.getName().equalsIgnoreCase(column.getName())) {
        return field;
      }
    }
    return null;
  }

  @Override
  public boolean loaded() {
    return leftInRowGroup > 0;
  }

  @Override
  public boolean hasNext() {
    if (leftInRowGroup > 0) {
      return true;
    }
    try {
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        leftInRowGroup = rowGroup.getRowCount();
        if (leftInRowGroup > 0) {
          List<ColumnDescriptor> descriptors = requested.getColumns();
          for (int c = 0; c < columnReaders.length; c++) {
            columnReaders[c] =
                new ColumnChunkReader(
                    descriptors.get(c), rowGroup.getPageReader(descriptors.get(c)), values[c]);
          }
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public RowData next() {
    writer.reset();
    try {
      for (ColumnChunkReader column : columnReaders) {
        column.read();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int field : absent) {
      writer.setNullAt(field);
    }
    partitions.write(writer);
    writer.complete();
    leftInRowGroup--;
    return row.copy();
  }

  @Override
  public void skip() {
    try {
      for (ColumnChunkReader column : columnReaders) {
        column.skip();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    leftInRowGroup--;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
