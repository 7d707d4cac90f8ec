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
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import org.apache.flink.annotation.Internal;

/**
 * Where a table's snapshots come from: the Delta log on a path, or a catalog that ratifies commits.
 * The snapshot's committer decides how a commit is made; this source decides how the latest
 * snapshot is found and what follows a commit.
 */
@Internal
public interface SnapshotSource extends AutoCloseable {

  /** Loads the table's latest snapshot. */
  Snapshot latest(Engine engine);

  /**
   * Called with the snapshot a commit produced; returns the snapshot to keep. Catalog-managed
   * tables publish (backfill) their ratified commits here.
   */
  default Snapshot afterCommit(Engine engine, Snapshot committed) {
    return committed;
  }

  @Override
  default void close() {}
}
