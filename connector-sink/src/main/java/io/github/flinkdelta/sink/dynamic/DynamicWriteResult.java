/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;

/**
 * The data files one writer subtask completed for one table in one checkpoint.
 *
 * @param table the table's name as records give it
 * @param files the completed files, kept deflated
 */
record DynamicWriteResult(String table, DataFiles files) {
  DynamicWriteResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(files, "files");
  }
}
