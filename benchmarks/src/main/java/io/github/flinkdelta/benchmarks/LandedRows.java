/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Checks that the files a contender's table holds contain every generated event id exactly once:
 * reads the first column of each file (the event id, whatever physical name the table gives it)
 * straight from its column chunks.
 */
final class LandedRows {

  private LandedRows() {}

  /** How the ids in a table compare with the ids generated. */
  record Landing(long rows, long missing, long duplicates, long neverGenerated, int files) {
    boolean exact() {
      return missing == 0 && duplicates == 0 && neverGenerated == 0;
    }

    String describe(String what) {
      return String.format(
          "%s: of %d generated rows, %d are missing from its %d committed files, %d landed more"
              + " than once, %d ids were never generated",
          what, rows, missing, files, duplicates, neverGenerated);
    }
  }

  /** Reads the event ids of {@code committedFiles} and compares them with ids 0 to rows - 1. */
  static Landing read(List<Path> committedFiles, long rows) throws IOException {
    if (rows > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many rows to check: " + rows);
    }
    BitSet seen = new BitSet((int) rows);
    long duplicates = 0;
    long outOfRange = 0;
    Configuration conf = HadoopConfigurations.of(Map.of());
    for (Path file : committedFiles) {
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
        MessageType schema = reader.getFooter().getFileMetaData().getSchema();
        Type first = schema.getType(0);
        if (!first.isPrimitive()
            || first.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.INT64) {
          throw new IllegalStateException(file + " does not start with the event id: " + first);
        }
        MessageType ids = new MessageType(schema.getName(), first);
        reader.setRequestedSchema(ids);
        ColumnDescriptor column = ids.getColumns().get(0);
        String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
        for (PageReadStore pages = reader.readNextRowGroup();
            pages != null;
            pages = reader.readNextRowGroup()) {
          ColumnReader values =
              new ColumnReadStoreImpl(
                      pages, new GroupRecordConverter(ids).getRootConverter(), ids, createdBy)
                  .getColumnReader(column);
          for (long i = 0; i < pages.getRowCount(); i++) {
            long id = values.getLong();
            values.consume();
            if (id < 0 || id >= rows) {
              outOfRange++;
            } else if (seen.get((int) id)) {
              duplicates++;
            } else {
              seen.set((int) id);
            }
          }
        }
      }
    }
    return new Landing(
        rows, rows - seen.cardinality(), duplicates, outOfRange, committedFiles.size());
  }
}
