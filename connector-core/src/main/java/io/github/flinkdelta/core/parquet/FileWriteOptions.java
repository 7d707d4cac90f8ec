package io.github.flinkdelta.core.parquet;

import java.io.Serializable;

/**
 * How data files are written and rolled.
 *
 * @param compression the Parquet compression codec
 * @param targetFileSizeBytes a file is closed once its written and buffered bytes reach this size
 * @param maxRowsPerFile a file is closed once it holds this many rows
 * @param rowGroupSizeBytes the Parquet row group size
 * @param pageSizeBytes the Parquet page size
 * @param bufferBudgetBytes the bytes that the open files of one writer may buffer together; past it
 *     the largest open file is closed
 * @param statsStringPrefixLength strings in min/max statistics are truncated to this many
 *     characters
 */
public record FileWriteOptions(
    Compression compression,
    long targetFileSizeBytes,
    long maxRowsPerFile,
    long rowGroupSizeBytes,
    int pageSizeBytes,
    long bufferBudgetBytes,
    int statsStringPrefixLength)
    implements Serializable {

  /** Parquet compression codecs the writer offers. */
  public enum Compression {
    SNAPPY,
    ZSTD,
    GZIP,
    UNCOMPRESSED
  }

  public FileWriteOptions {
    requirePositive(targetFileSizeBytes, "target file size");
    requirePositive(maxRowsPerFile, "max rows per file");
    requirePositive(rowGroupSizeBytes, "row group size");
    requirePositive(pageSizeBytes, "page size");
    requirePositive(bufferBudgetBytes, "buffer budget");
    requirePositive(statsStringPrefixLength, "statistics string prefix length");
  }

  /** Delta's default length of string prefixes in min/max statistics. */
  public static final int DEFAULT_STATS_STRING_PREFIX_LENGTH = 32;

  private static void requirePositive(long value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got " + value);
    }
  }
}
