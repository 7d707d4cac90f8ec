/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.config.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopOutputFile;

/**
 * One open Parquet data file. Rows are encoded into parquet-hadoop's column buffers as they arrive;
 * nothing keeps a copy of a row. Completing the file yields its size, row count and the Delta
 * statistics gathered while writing.
 */
@Internal
public final class DataFileWriter implements AutoCloseable {

  private static final int INITIAL_COMPRESSION_BUFFER = 4096;

  /**
   * The heap an open file holds before any data: parquet-hadoop's writer, column stores and output
   * stream buffers. Measured at about 60 KB per file with Parquet 1.16, whatever the column count.
   */
  public static final long OPEN_FILE_OVERHEAD_BYTES = 64 * 1024;

  private final StructType statsSchema;
  private final List<ColumnStats> stats;
  private final CountingOutputFile output;
  private final ParquetRowWriter writer;
  private long numRecords;

  /**
   * Creates {@code file} and opens it for rows.
   *
   * @param dictionaries what earlier files of the same writer taught about dictionary encoding
   */
  public DataFileWriter(
      DataColumns columns,
      Configuration conf,
      Path file,
      ParquetFileOptions options,
      DictionaryChoices dictionaries)
      throws IOException {
    this.statsSchema = columns.physicalSchema();
    this.stats = new ArrayList<>();

    ValueWriters writers =
        new ValueWriters(columns.tableName(), options.statsStringPrefixLength(), stats);
    List<ParquetColumn> fields = columns.columns();
    ValueWriter[] fieldWriters = new ValueWriter[fields.size()];
    Column root = new Column(new String[0]);
    for (int i = 0; i < fieldWriters.length; i++) {
      fieldWriters[i] = writers.forColumn(fields.get(i), root);
    }
    FieldsWriter fieldsWriter =
        new FieldsWriter(columns.tableName(), "", fields, fieldWriters, columns.positions());

    this.output = new CountingOutputFile(HadoopOutputFile.fromPath(file, conf));
    this.writer =
        new ParquetRowWriter(
            output,
            columns.messageType(),
            fieldsWriter,
            // Parquet's default codec factory reserves a page-sized buffer per open file up
            // front; this one starts small and grows only when pages are actually written.
            new CodecFactory(conf, INITIAL_COMPRESSION_BUFFER),
            codec(options.compression()),
            options.rowGroupSizeBytes(),
            options.pageSizeBytes(),
            dictionaries);
  }

  /** Encodes one row into the file. */
  public void write(RowData row) throws IOException {
    writer.write(row);
    numRecords++;
  }

  public long numRecords() {
    return numRecords;
  }

  /** Bytes written to storage plus bytes still buffered in memory. */
  public long dataSize() {
    return writer.dataSize();
  }

  /**
   * The heap this open file holds, given its {@link #dataSize()}: the bytes encoded but not yet
   * flushed to storage, plus the fixed {@link #OPEN_FILE_OVERHEAD_BYTES} of an open file.
   */
  public long heapBytes(long dataSize) {
    return OPEN_FILE_OVERHEAD_BYTES + Math.max(0, dataSize - output.position());
  }

  /** Flushes and closes the file, returning what the table's log records of it. */
  public WrittenFile finish() throws IOException {
    writer.close();
    ParquetMetadata footer = writer.footer();
    Map<Column, Literal> min = new HashMap<>();
    Map<Column, Literal> max = new HashMap<>();
    Map<Column, Long> nulls = new HashMap<>();
    for (ColumnStats column : stats) {
      column.complete(footer);
      column.exportTo(min, max, nulls);
    }
    String statsJson =
        new DataFileStatistics(numRecords, min, max, nulls, Optional.empty())
            .serializeAsJson(statsSchema);
    return new WrittenFile(output.position(), numRecords, statsJson);
  }

  /** Closes the file without completing it, for abandoned work (the file is not committed). */
  @Override
  public void close() {
    try {
      writer.abandon();
    } catch (IOException | RuntimeException e) {
      // The file was never going to be committed; its half-written state is irrelevant.
    }
  }

  private static CompressionCodecName codec(Compression compression) {
    return switch (compression) {
      case SNAPPY -> CompressionCodecName.SNAPPY;
      case ZSTD -> CompressionCodecName.ZSTD;
      case GZIP -> CompressionCodecName.GZIP;
      case UNCOMPRESSED -> CompressionCodecName.UNCOMPRESSED;
    };
  }
}
