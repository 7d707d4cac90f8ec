/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.parquet.ParquetFileOptions;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How data files are written and rolled.
 *
 * @param parquet how each file is encoded
 * @param targetFileSizeBytes a file is closed once its written and buffered bytes reach this size
 * @param maxRowsPerFile a file is closed once it holds this many rows
 * @param bufferBudgetBytes the bytes that the open files and held rows of one writer may take
 *     together; past it the partitions holding the most are completed as files
 */
@Internal
public record FileWriteOptions(
    ParquetFileOptions parquet,
    long targetFileSizeBytes,
    long maxRowsPerFile,
    long bufferBudgetBytes)
    implements Serializable {

  public FileWriteOptions {
    Objects.requireNonNull(parquet, "parquet");
    requirePositive(targetFileSizeBytes, "target file size");
    requirePositive(maxRowsPerFile, "max rows per file");
    requirePositive(bufferBudgetBytes, "buffer budget");
  }

  /** The file writing options that {@code config} sets, defaults for the rest. */
  public static FileWriteOptions from(ReadableConfig config) {
    return new FileWriteOptions(
        new ParquetFileOptions(
            config.get(TableWriteOptions.COMPRESSION),
            config.get(TableWriteOptions.ROW_GROUP_SIZE).getBytes(),
            Math.toIntExact(config.get(TableWriteOptions.PAGE_SIZE).getBytes()),
            ParquetFileOptions.DEFAULT_STATS_STRING_PREFIX_LENGTH),
        config.get(TableWriteOptions.TARGET_FILE_SIZE).getBytes(),
        config.get(TableWriteOptions.MAX_ROWS_PER_FILE),
        config.get(TableWriteOptions.BUFFER_BUDGET).getBytes());
  }

  /** These options with files rolled at {@code bytes}. */
  public FileWriteOptions withTargetFileSize(long bytes) {
    return new FileWriteOptions(parquet, bytes, maxRowsPerFile, bufferBudgetBytes);
  }

  private static void requirePositive(long value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got " + value);
    }
  }
}
