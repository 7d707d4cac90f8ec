/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import io.github.flinkdelta.core.config.TableWriteOptions;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What a compaction rewrites, and into what.
 *
 * @param targetFileSizeBytes the size the rewritten files are rolled at; a file below three
 *     quarters of it counts as small
 * @param minInputFiles the fewest small files of one partition worth rewriting together
 * @param maxBytesPerRun the most bytes of input files one run rewrites; the rest waits for the next
 * @param deletedRowsRatio a file whose deletion vector marks at least this fraction of its rows is
 *     rewritten even on its own, so that reads stop decoding rows only to drop them
 */
@Internal
public record CompactionOptions(
    long targetFileSizeBytes, int minInputFiles, long maxBytesPerRun, double deletedRowsRatio)
    implements Serializable {

  public CompactionOptions {
    if (targetFileSizeBytes <= 0) {
      throw new IllegalArgumentException(
          "The compaction's target file size must be positive, got " + targetFileSizeBytes);
    }
    if (minInputFiles < 2) {
      throw new IllegalArgumentException(
          "A compaction needs at least 2 input files to merge, got " + minInputFiles);
    }
    if (maxBytesPerRun <= 0) {
      throw new IllegalArgumentException(
          "The compaction's bytes per run must be positive, got " + maxBytesPerRun);
    }
    if (!(deletedRowsRatio > 0 && deletedRowsRatio <= 1)) {
      throw new IllegalArgumentException(
          "The compaction's deleted rows ratio must be in (0, 1], got " + deletedRowsRatio);
    }
  }

  /** The options that {@code config} sets ({@code sink.compaction.*}), defaults for the rest. */
  public static CompactionOptions from(ReadableConfig config) {
    return new CompactionOptions(
        config.get(TableWriteOptions.COMPACTION_TARGET_FILE_SIZE).getBytes(),
        config.get(TableWriteOptions.COMPACTION_MIN_INPUT_FILES),
        config.get(TableWriteOptions.COMPACTION_MAX_BYTES_PER_RUN).getBytes(),
        config.get(TableWriteOptions.COMPACTION_DELETED_ROWS_RATIO));
  }

  /** Files below this size are small. */
  long smallFileBytes() {
    return targetFileSizeBytes / 4 * 3;
  }
}
