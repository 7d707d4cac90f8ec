/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import org.apache.flink.annotation.Internal;

/**
 * A table's versions as a reader sees them: the latest, one in the past, and the commits between
 * two. For a catalog-managed table every answer includes the commits the catalog has ratified but
 * not yet published to {@code _delta_log}.
 */
@Internal
public interface TableHistory extends AutoCloseable {

  /** The table's latest snapshot. */
  Snapshot latest(Engine engine);

  /** The snapshot of {@code version}. */
  Snapshot atVersion(Engine engine, long version);

  /** The snapshot of the last version committed at or before {@code timestampMillis}. */
  Snapshot atTimestamp(Engine engine, long timestampMillis);

  /** The commits of the versions from {@code start} through {@code end}, both included. */
  CommitRange commits(Engine engine, long start, long end);

  @Override
  default void close() {}
}
