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
