/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * What a contender left on disk, read from the Parquet footers of its data files: how many files,
 * rows and bytes, and the codec they were written with.
 */
record ParquetOutput(long files, long rows, long bytes, String codec) {

  static ParquetOutput read(Path root) throws IOException {
    List<Path> files;
    try (Stream<Path> paths = Files.walk(root)) {
      files =
          paths.filter(Files::isRegularFile).filter(ParquetOutput::isDataFile).sorted().toList();
    }
    Configuration conf = HadoopConfigurations.of(Map.of());
    ParquetReadOptions options = HadoopReadOptions.builder(conf).build();
    long rows = 0;
    long bytes = 0;
    String codec = "none";
    for (Path file : files) {
      bytes += Files.size(file);
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), conf),
              options)) {
        ParquetMetadata footer = reader.getFooter();
        for (BlockMetaData block : footer.getBlocks()) {
          rows += block.getRowCount();
          if (!block.getColumns().isEmpty()) {
            codec = block.getColumns().get(0).getCodec().name();
          }
        }
      }
    }
    return new ParquetOutput(files.size(), rows, bytes, codec);
  }

  /** Data files only: no hidden or in-progress files, no Delta or Iceberg metadata. */
  private static boolean isDataFile(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".parquet") || name.startsWith(".") || name.startsWith("_")) {
      return false;
    }
    for (Path part : file) {
      String dir = part.toString();
      if (dir.equals("_delta_log") || dir.equals("metadata")) {
        return false;
      }
    }
    return true;
  }
}
