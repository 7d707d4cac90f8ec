/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.FileLayout;
import org.apache.flink.table.data.utils.ProjectedRowData;

/**
 * A table and row shape as a writer found them: the table to write (created and evolved already),
 * and how rows of the shape are laid out in its files.
 *
 * @param name the table's name as records give it
 * @param locator the table
 * @param layout how rows of the shape are laid out in the table's data files
 * @param keptPositions the positions of the fields a row of the shape is written with, in order;
 *     null for all (a field is left out when its column was dropped from the table)
 * @param key the table's primary key as it encodes keys of rows of the shape; null for a table that
 *     appends
 * @param tableId the table's id ({@link io.github.flinkdelta.core.table.DeltaTable#id()}): another
 *     after the table was dropped and created anew
 */
record ResolvedShape(
    String name,
    TableLocator locator,
    FileLayout layout,
    int[] keptPositions,
    KeyColumns key,
    String tableId) {

  /** A view of rows of the shape as the layout takes them; null when the rows fit as they are. */
  ProjectedRowData projection() {
    return keptPositions == null ? null : ProjectedRowData.from(keptPositions);
  }
}
