/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import io.delta.kernel.Snapshot;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.write.DataFiles;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * A compaction planned and written but not committed: the version it was planned on, the files it
 * removes as that version lists them, and the files it wrote in their place. Any handle of the
 * table may commit it ({@code DeltaTable.commitCompaction}), so that the rewrite can run on a
 * thread of its own and the commit on the thread that commits the stream's checkpoints.
 */
@Internal
public final class PreparedCompaction {

  private final Snapshot base;
  private final List<LiveFile> removed;
  private final DataFiles written;

  PreparedCompaction(Snapshot base, List<LiveFile> removed, DataFiles written) {
    this.base = base;
    this.removed = List.copyOf(removed);
    this.written = written;
  }

  /** The version the compaction was planned on. */
  public long plannedVersion() {
    return base.getVersion();
  }

  /** The files it removes. */
  public int inputFiles() {
    return removed.size();
  }

  /** The ids ({@link io.github.flinkdelta.core.write.FileIds}) of the files it removes. */
  public List<Long> removedIds() {
    return removed.stream().map(LiveFile::id).toList();
  }

  /**
   * The deletion vector each removed file had when the compaction read it, by file id; a file
   * without one maps to null.
   */
  public Map<Long, DeletionVectorDescriptor> readVectors() {
    Map<Long, DeletionVectorDescriptor> vectors = new HashMap<>();
    removed.forEach(file -> vectors.put(file.id(), file.deletionVector()));
    return vectors;
  }

  /** The files it wrote. */
  public DataFiles writtenFiles() {
    return written;
  }

  Snapshot base() {
    return base;
  }

  List<LiveFile> removed() {
    return removed;
  }

  DataFiles written() {
    return written;
  }
}
