/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A finished data file, ready to be added to the table: everything a commit needs and nothing of
 * the rows themselves.
 *
 * @param path the file's path relative to the table root, not URI-encoded
 * @param sizeBytes the file's size
 * @param numRecords the rows in the file
 * @param partitionValues the file's partition values in Delta's string form, keyed by logical
 *     column name; a null value is a null partition
 * @param statsJson the file's Delta statistics as JSON, keyed by physical column names
 */
@Internal
public record DataFile(
    String path,
    long sizeBytes,
    long numRecords,
    Map<String, String> partitionValues,
    String statsJson)
    implements Serializable {

  public DataFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(statsJson, "statsJson");
    // Partition values may be null (a null partition), which Map.copyOf refuses.
    partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
  }
}
