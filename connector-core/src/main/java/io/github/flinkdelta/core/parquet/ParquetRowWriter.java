/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows into one Parquet file through parquet-java's file writer and column stores, which
 * lets data files use {@link DataValuesWriterFactory}'s encoders (parquet-java's {@code
 * ParquetWriter} builder takes none). A row group is completed once its buffered bytes reach the
 * row group size; they are measured every 100 to 10,000 rows, as parquet-java does, since measuring
 * walks every column. Which columns try a dictionary is up to {@link DictionaryChoices}. Rows of
 * primitive columns only go straight to the column writers ({@link FlatRecordConsumer}).
 *
 * <p>A row that fails to encode abandons the file: its column stores may hold part of the row, so
 * {@link #close()} then writes no footer and the file is unreadable. Callers fail the job, and the
 * file is never committed.
 */
final class ParquetRowWriter implements AutoCloseable {

  private static final Map<String, String> FOOTER_METADATA = Map.of("writer", "flink-delta");

  private final MessageType schema;

  /** Parquet-java's record writer for schemas with groups; {@code null} for flat ones. */
  private final MessageColumnIO columnIO;

  private final FieldsWriter fields;
  private final ParquetProperties properties;
  private final ParquetFileWriter file;
  private final CompressionCodecFactory codecs;
  private final BytesInputCompressor compressor;
  private final long rowGroupSize;
  private final DictionaryChoices dictionaries;
  private final Set<ColumnPath> writtenPlain;

  /** The row group size, less what would cross a storage block boundary (HDFS alignment). */
  private long nextRowGroupSize;

  private ColumnChunkPageWriteStore pages;
  private ColumnWriteStore columns;
  private RecordConsumer consumer;
  private long rowsInGroup;
  private long rowsAtNextSizeCheck;
  private long endOfLastRowGroup;
  private boolean abandoned;
  private boolean closed;

  ParquetRowWriter(
      OutputFile output,
      MessageType schema,
      FieldsWriter fields,
      CompressionCodecFactory codecs,
      CompressionCodecName codec,
      long rowGroupSize,
      int pageSize,
      DictionaryChoices dictionaries)
      throws IOException {
    this.schema = schema;
    this.columnIO =
        FlatRecordConsumer.supports(schema) ? null : new ColumnIOFactory(false).getColumnIO(schema);
    this.fields = fields;
    this.codecs = codecs;
    this.rowGroupSize = rowGroupSize;
    this.nextRowGroupSize = rowGroupSize;
    this.dictionaries = dictionaries;
    this.writtenPlain = dictionaries.plainColumnsForNextFile();
    ParquetProperties.Builder builder =
        ParquetProperties.builder()
            .withPageSize(pageSize)
            .withDictionaryPageSize(pageSize)
            .withValuesWriterFactory(new DataValuesWriterFactory());
    for (ColumnPath column : writtenPlain) {
      builder.withDictionaryEncoding(column.toDotString(), false);
    }
    this.properties = builder.build();
    this.file =
        new ParquetFileWriter(
            output,
            schema,
            ParquetFileWriter.Mode.CREATE,
            rowGroupSize,
            ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
            null,
            properties);
    try {
      file.start();
      this.compressor = codecs.getCompressor(codec);
      startRowGroup();
    } catch (IOException | RuntimeException e) {
      file.close();
      codecs.release();
      throw e;
    }
  }

  /** Encodes one row; a row failing the table's NOT NULL columns is refused before any encoding. */
  void write(RowData row) throws IOException {
    fields.checkNotNull(row);
    try {
      consumer.startMessage();
      fields.write(consumer, row);
      consumer.endMessage();
    } catch (RuntimeException e) {
      abandoned = true;
      throw e;
    }
    if (++rowsInGroup >= rowsAtNextSizeCheck) {
      completeRowGroupIfFull();
    }
  }

  /** Bytes written to the file plus bytes encoded and buffered for the open row group. */
  long dataSize() {
    return endOfLastRowGroup + columns.getBufferedSize();
  }

  /** The footer of the completed file, with parquet-java's statistics of each column chunk. */
  ParquetMetadata footer() {
    if (!closed || abandoned) {
      throw new IllegalStateException("The file is not complete");
    }
    return file.getFooter();
  }

  /** Closes the file without completing it: no buffered row group is written, no footer. */
  void abandon() throws IOException {
    abandoned = true;
    close();
  }

  /** Completes the file with its footer; after a failed row, closes it without one. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!abandoned) {
        flushRowGroup();
        file.end(FOOTER_METADATA);
        dictionaries.learnFrom(file.getFooter(), writtenPlain);
      }
    } finally {
      columns.close();
      pages.close();
      file.close();
      codecs.release();
    }
  }

  private void completeRowGroupIfFull() throws IOException {
    long buffered = columns.getBufferedSize();
    long bytesPerRow = Math.max(1, buffered / rowsInGroup);
    // Complete a little early rather than overshoot: within two rows of the limit is full.
    if (buffered > nextRowGroupSize - 2 * bytesPerRow) {
      flushRowGroup();
      columns.close();
      pages.close();
      startRowGroup();
    } else {
      // Measure again halfway to where the row group would be full at this row size.
      long rowsWhenFull = nextRowGroupSize / bytesPerRow;
      rowsAtNextSizeCheck =
          Math.min(
              Math.max(
                  (rowsInGroup + rowsWhenFull) / 2,
                  rowsInGroup + properties.getMinRowCountForPageSizeCheck()),
              rowsInGroup + properties.getMaxRowCountForPageSizeCheck());
    }
  }

  private void startRowGroup() {
    pages =
        new ColumnChunkPageWriteStore(
            compressor,
            schema,
            properties.getAllocator(),
            properties.getColumnIndexTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    columns = properties.newColumnWriteStore(schema, pages, pages);
    consumer =
        columnIO == null
            ? new FlatRecordConsumer(schema, columns)
            : columnIO.getRecordWriter(columns);
    rowsInGroup = 0;
    rowsAtNextSizeCheck = properties.getMinRowCountForPageSizeCheck();
  }

  private void flushRowGroup() throws IOException {
    consumer.flush();
    if (rowsInGroup == 0) {
      return;
    }
    file.startBlock(rowsInGroup);
    columns.flush();
    pages.flushToFileWriter(file);
    file.endBlock();
    endOfLastRowGroup = file.getPos();
    nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
  }
}
