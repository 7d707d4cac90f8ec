/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
