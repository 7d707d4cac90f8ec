/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
