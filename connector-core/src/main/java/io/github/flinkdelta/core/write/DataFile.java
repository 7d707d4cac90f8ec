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
