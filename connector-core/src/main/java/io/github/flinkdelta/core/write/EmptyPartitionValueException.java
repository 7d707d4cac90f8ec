/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import org.apache.flink.annotation.Internal;

/**
 * Thrown when a row holds an empty string (or empty binary) in a partition column that cannot hold
 * a null: Delta stores an empty partition value as null (PROTOCOL.md, partition value
 * serialization), so every reader would see null where the row had a value.
 */
@Internal
public final class EmptyPartitionValueException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public EmptyPartitionValueException(String table, String column) {
    super(
        String.format(
            "Table %s: partition column '%s' is NOT NULL or part of the primary key, but a row"
                + " holds an empty value there, which Delta stores as a null partition value:"
                + " every reader would see null. Nothing of the current checkpoint is committed."
                + " Replace empty values before the sink (e.g. NULLIF or COALESCE to a value of"
                + " your choice), or partition by another column.",
            table, column));
  }
}
