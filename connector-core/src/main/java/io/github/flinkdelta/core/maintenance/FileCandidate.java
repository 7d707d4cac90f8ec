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
