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
