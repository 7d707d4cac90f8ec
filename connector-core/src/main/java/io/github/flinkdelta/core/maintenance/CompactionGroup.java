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

import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Files of one partition that one compaction rewrites together.
 *
 * @param partitionValues the partition all of them are in
 * @param files the files, at least two unless one has many deleted rows
 */
@Internal
public record CompactionGroup(Map<String, String> partitionValues, List<FileCandidate> files) {

  public CompactionGroup {
    files = List.copyOf(files);
  }

  /** The bytes of the group's files. */
  public long sizeBytes() {
    return files.stream().mapToLong(FileCandidate::sizeBytes).sum();
  }
}
