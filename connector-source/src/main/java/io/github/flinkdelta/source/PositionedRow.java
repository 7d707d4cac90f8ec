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
