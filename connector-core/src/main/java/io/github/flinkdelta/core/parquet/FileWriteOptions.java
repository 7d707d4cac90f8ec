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

  /** Defaults: snappy, 128 MB files, 128 MB row groups, 1 MB pages, a 256 MB buffer budget. */
  public static FileWriteOptions defaults() {
    return new FileWriteOptions(
        Compression.SNAPPY, 128L << 20, Long.MAX_VALUE, 128L << 20, 1 << 20, 256L << 20, 32);
  }

  public FileWriteOptions withCompression(Compression value) {
    return new FileWriteOptions(
        value,
        targetFileSizeBytes,
        maxRowsPerFile,
        rowGroupSizeBytes,
        pageSizeBytes,
        bufferBudgetBytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withTargetFileSize(long bytes) {
    return new FileWriteOptions(
        compression,
        bytes,
        maxRowsPerFile,
        rowGroupSizeBytes,
        pageSizeBytes,
        bufferBudgetBytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withMaxRowsPerFile(long rows) {
    return new FileWriteOptions(
        compression,
        targetFileSizeBytes,
        rows,
        rowGroupSizeBytes,
        pageSizeBytes,
        bufferBudgetBytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withRowGroupSize(long bytes) {
    return new FileWriteOptions(
        compression,
        targetFileSizeBytes,
        maxRowsPerFile,
        bytes,
        pageSizeBytes,
        bufferBudgetBytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withPageSize(int bytes) {
    return new FileWriteOptions(
        compression,
        targetFileSizeBytes,
        maxRowsPerFile,
        rowGroupSizeBytes,
        bytes,
        bufferBudgetBytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withBufferBudget(long bytes) {
    return new FileWriteOptions(
        compression,
        targetFileSizeBytes,
        maxRowsPerFile,
        rowGroupSizeBytes,
        pageSizeBytes,
        bytes,
        statsStringPrefixLength);
  }

  public FileWriteOptions withStatsStringPrefixLength(int chars) {
    return new FileWriteOptions(
        compression,
        targetFileSizeBytes,
        maxRowsPerFile,
        rowGroupSizeBytes,
        pageSizeBytes,
        bufferBudgetBytes,
        chars);
  }

  private static void requirePositive(long value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got " + value);
    }
  }
}
