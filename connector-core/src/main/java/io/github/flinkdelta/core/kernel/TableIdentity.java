/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import org.apache.flink.annotation.Internal;

/**
 * Which table a snapshot is of: the unique id its {@code metaData} action carries, set when the
 * table is created and kept by every later version. A table dropped and created again under the
 * same name or path has another. Read through Kernel's internal snapshot: Kernel's public API does
 * not give it.
 */
@Internal
public final class TableIdentity {

  private TableIdentity() {}

  /** The id of the table {@code snapshot} is a version of. */
  public static String of(Snapshot snapshot) {
    return ((SnapshotImpl) snapshot).getMetadata().getId();
  }
}
