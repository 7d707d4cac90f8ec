/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Everything one checkpoint changes in the table: its data files from all writer subtasks and, in
 * an upsert sink, the rows they deleted, to be committed as one Delta version under transaction
 * ({@code appId}, {@code checkpointId}).
 *
 * @param createdMillis when the checkpoint's files were handed on, in milliseconds since the epoch;
 *     0 when unknown (state of an earlier connector version). A vacuum spares files that no version
 *     references only while they are younger than the table's retention.
 */
@Internal
public record DeltaCommittable(
    String appId, long checkpointId, DataFiles files, FileDeletes deletes, long createdMillis) {
  public DeltaCommittable {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(deletes, "deletes");
  }

  /** A committable made now. */
  public DeltaCommittable(String appId, long checkpointId, DataFiles files, FileDeletes deletes) {
    this(appId, checkpointId, files, deletes, System.currentTimeMillis());
  }

  /** A committable made now that only adds files. */
  public DeltaCommittable(String appId, long checkpointId, DataFiles files) {
    this(appId, checkpointId, files, FileDeletes.empty());
  }

  /** Whether the checkpoint changed nothing. */
  public boolean isEmpty() {
    return files.isEmpty() && deletes.isEmpty();
  }
}
