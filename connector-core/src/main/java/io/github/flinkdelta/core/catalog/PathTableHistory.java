/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.engine.Engine;
import org.apache.flink.annotation.Internal;

/** The versions of a table whose commits are the files of its {@code _delta_log}. */
@Internal
public record PathTableHistory(String path) implements TableHistory {

  @Override
  public Snapshot latest(Engine engine) {
    return TableManager.loadSnapshot(path).build(engine);
  }

  @Override
  public Snapshot atVersion(Engine engine, long version) {
    return TableManager.loadSnapshot(path).atVersion(version).build(engine);
  }

  @Override
  public Snapshot atTimestamp(Engine engine, long timestampMillis) {
    return TableManager.loadSnapshot(path)
        .atTimestamp(timestampMillis, latest(engine))
        .build(engine);
  }

  @Override
  public CommitRange commits(Engine engine, long start, long end) {
    return TableManager.loadCommitRange(path, CommitBoundary.atVersion(start))
        .withEndBoundary(CommitBoundary.atVersion(end))
        .build(engine);
  }
}
