/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.github.flinkdelta.core.config.Compression;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * How one Parquet data file is encoded.
 *
 * @param compression the compression codec
 * @param rowGroupSizeBytes the row group size
 * @param pageSizeBytes the page size
 * @param statsStringPrefixLength strings in min/max statistics are truncated to this many
 *     characters
 */
@Internal
public record ParquetFileOptions(
    Compression compression, long rowGroupSizeBytes, int pageSizeBytes, int statsStringPrefixLength)
    implements Serializable {

  /** Delta's default length of string prefixes in min/max statistics. */
  public static final int DEFAULT_STATS_STRING_PREFIX_LENGTH = 32;

  public ParquetFileOptions {
    Objects.requireNonNull(compression, "compression");
    requirePositive(rowGroupSizeBytes, "row group size");
    requirePositive(pageSizeBytes, "page size");
    requirePositive(statsStringPrefixLength, "statistics string prefix length");
  }

  /** The file name suffix of files in this encoding, e.g. {@code .snappy.parquet}. */
  public String fileSuffix() {
    return "." + compression.name().toLowerCase(Locale.ROOT) + ".parquet";
  }

  private static void requirePositive(long value, String what) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive, got " + value);
    }
  }
}
