/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
