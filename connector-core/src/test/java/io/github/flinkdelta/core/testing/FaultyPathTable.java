/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import io.delta.kernel.TableManager;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableLocator;
import org.apache.hadoop.conf.Configuration;

/** A path table whose every snapshot commits through {@code faults}. */
public record FaultyPathTable(String path, CommitFaults faults) implements TableLocator {

  @Override
  public String name() {
    return path;
  }

  @Override
  public SnapshotSource snapshots(Configuration conf) {
    return engine ->
        TableManager.loadSnapshot(path).withCommitter(faults.committer()).build(engine);
  }
}
