/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
