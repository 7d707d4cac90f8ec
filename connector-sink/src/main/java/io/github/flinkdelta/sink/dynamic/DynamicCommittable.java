/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.committer.DeltaCommittable;
import java.util.Objects;

/**
 * What one checkpoint changes in one table of a dynamic sink: committed as one version of that
 * table, under transaction (app id, checkpoint id) as the single-table sink commits.
 *
 * @param table the table's name as records give it
 * @param committable the table's files of the checkpoint, from all writer subtasks
 * @param truncates whether every row of the table is removed once the checkpoint's version is
 *     committed, in a version of its own
 * @param dropsTableId the id of the table dropped once the checkpoint's version is committed; null
 *     when it is not dropped
 */
record DynamicCommittable(
    String table, DeltaCommittable committable, boolean truncates, String dropsTableId) {
  DynamicCommittable {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(committable, "committable");
  }

  /** The table's files of the checkpoint, without a truncation after them. */
  DynamicCommittable(String table, DeltaCommittable committable) {
    this(table, committable, false, null);
  }
}
