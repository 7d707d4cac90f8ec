/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What a completed Parquet data file holds, as the table's log records it.
 *
 * @param sizeBytes the file's size
 * @param numRecords the rows in the file
 * @param statsJson the file's Delta statistics as JSON, keyed by physical column names
 */
@Internal
public record WrittenFile(long sizeBytes, long numRecords, String statsJson) {
  public WrittenFile {
    Objects.requireNonNull(statsJson, "statsJson");
  }
}
