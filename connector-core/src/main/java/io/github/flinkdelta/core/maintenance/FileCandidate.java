/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A data file of a table as compaction plans with it.
 *
 * @param path the file's path as its add action writes it
 * @param partitionValues its partition values, as its add action holds them
 * @param sizeBytes its size
 * @param numRecords its rows, deleted or not
 * @param deletedRows the rows its deletion vector marks
 */
@Internal
public record FileCandidate(
    String path,
    Map<String, String> partitionValues,
    long sizeBytes,
    long numRecords,
    long deletedRows) {

  public FileCandidate {
    Objects.requireNonNull(path, "path");
    // A null value is the null partition, which Map.copyOf refuses.
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
  }

  /** The fraction of its rows that are deleted. */
  double deletedRatio() {
    return numRecords <= 0 ? 0 : (double) deletedRows / numRecords;
  }

  /** Its size, less the share of deleted rows: what rewriting it leaves, roughly. */
  long liveBytes() {
    return numRecords <= 0 ? sizeBytes : Math.round(sizeBytes * (1 - deletedRatio()));
  }
}
