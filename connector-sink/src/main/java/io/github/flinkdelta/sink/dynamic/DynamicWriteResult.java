/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;

/**
 * What one writer subtask did to one table in one checkpoint: the data files it completed and, for
 * a table with a primary key, the rows it deleted by their files and positions.
 *
 * @param table the table's name as records give it
 * @param files the completed files, kept deflated
 * @param deletes the rows deleted; empty for an appending table
 * @param truncates whether the table is truncated once the checkpoint's rows are committed: the
 *     router took a truncation of it before the checkpoint's barrier
 */
record DynamicWriteResult(String table, DataFiles files, FileDeletes deletes, boolean truncates) {
  DynamicWriteResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(deletes, "deletes");
  }

  /** Files written to {@code table} and rows deleted in it. */
  DynamicWriteResult(String table, DataFiles files, FileDeletes deletes) {
    this(table, files, deletes, false);
  }

  /** The truncation of {@code table} after the checkpoint's rows. */
  static DynamicWriteResult truncation(String table) {
    return new DynamicWriteResult(table, DataFiles.empty(), FileDeletes.empty(), true);
  }

  /** Files appended to {@code table}. */
  DynamicWriteResult(String table, DataFiles files) {
    this(table, files, FileDeletes.empty());
  }
}
