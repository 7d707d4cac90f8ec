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
package io.github.flinkdelta.sink.writer;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What one writer subtask did in one checkpoint: the data files it completed, kept deflated, and,
 * in an upsert sink, the rows it deleted by their files and positions.
 */
@Internal
public record DeltaWriteResult(DataFiles files, FileDeletes deletes) {
  public DeltaWriteResult {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(deletes, "deletes");
  }

  /** Files without deletes, as an appending writer completes them. */
  public DeltaWriteResult(DataFiles files) {
    this(files, FileDeletes.empty());
  }
}
