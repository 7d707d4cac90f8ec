/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What one version of a table changed in its rows: the files it added and removed as data changes
 * (a compaction's rewrite, committed with {@code dataChange = false}, is neither), and whether it
 * changed the table's metadata (its schema, partitioning or properties).
 *
 * @param version the version
 * @param timestamp the version's commit timestamp, in milliseconds since the epoch
 * @param added the files added with {@code dataChange = true}
 * @param removed the files removed with {@code dataChange = true}, as their remove action names
 *     them (with the deletion vector they had)
 * @param metadataChanged whether the version has a {@code metaData} action
 */
@Internal
public record VersionChange(
    long version,
    long timestamp,
    List<ReadFile> added,
    List<ReadFile> removed,
    boolean metadataChanged) {

  public VersionChange {
    added = List.copyOf(added);
    removed = List.copyOf(removed);
  }

  /** Whether the version only adds rows: it removes no file and re-adds none with new deletes. */
  public boolean onlyAppends() {
    return removed.isEmpty();
  }
}
