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
package io.github.flinkdelta.core.parquet;

import org.apache.flink.annotation.Internal;

/** Thrown when a row holds a null in a column that the table declares NOT NULL. */
@Internal
public final class NullValueException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String table;
  private final String column;

  public NullValueException(String table, String column) {
    super(
        String.format(
            "Table %s: column '%s' is NOT NULL but a row holds a null there. Nothing of the"
                + " current checkpoint is committed. Filter or COALESCE the column before the sink,"
                + " or make the column nullable in the table.",
            table, column));
    this.table = table;
    this.column = column;
  }

  /** The table being written. */
  public String table() {
    return table;
  }

  /** The path of the column, nested fields separated by dots. */
  public String column() {
    return column;
  }
}
