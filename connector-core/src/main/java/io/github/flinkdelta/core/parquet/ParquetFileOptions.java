/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
