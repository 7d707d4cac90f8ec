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
