/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;

/**
 * A row read from a split's file and its position there: the handle a batch of {@link SplitRows}
 * moves over its rows, one at a time. The emitter reads it before the next row replaces it.
 */
@Internal
final class PositionedRow {

  private RowData row;
  private long position;

  PositionedRow set(RowData row, long position) {
    this.row = row;
    this.position = position;
    return this;
  }

  RowData row() {
    return row;
  }

  /** The row's index in its file. */
  long position() {
    return position;
  }
}
