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
 * @param dropsTableId the id of the table dropped once the checkpoint's rows are committed (the
 *     router took a drop of it before the barrier); null when it is not dropped
 */
record DynamicWriteResult(
    String table, DataFiles files, FileDeletes deletes, boolean truncates, String dropsTableId) {
  DynamicWriteResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(deletes, "deletes");
  }

  /** Files written to {@code table} and rows deleted in it. */
  DynamicWriteResult(String table, DataFiles files, FileDeletes deletes) {
    this(table, files, deletes, false, null);
  }

  /** The truncation or drop of a table after the checkpoint's rows. */
  static DynamicWriteResult of(HeldRecords.TableEvent event) {
    return new DynamicWriteResult(
        event.table(),
        DataFiles.empty(),
        FileDeletes.empty(),
        !event.drops(),
        event.dropsTableId());
  }

  /** Files appended to {@code table}. */
  DynamicWriteResult(String table, DataFiles files) {
    this(table, files, FileDeletes.empty());
  }
}
