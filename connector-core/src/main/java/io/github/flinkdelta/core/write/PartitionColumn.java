/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A partition column: its value is kept out of the data file and recorded in the file's partition
 * values instead.
 *
 * @param name the logical column name
 * @param directoryName the name used in the partition directory (the physical name)
 * @param position where the column sits in the incoming row
 * @param type the column's Flink type
 * @param refusesEmpty whether a row's empty string (or empty binary) value is refused: Delta stores
 *     an empty partition value as null, which a NOT NULL column, or a primary key column, cannot
 *     hold
 */
@Internal
public record PartitionColumn(
    String name, String directoryName, int position, LogicalType type, boolean refusesEmpty)
    implements Serializable {

  /** A partition column that refuses empty values when it is NOT NULL. */
  public PartitionColumn(String name, String directoryName, int position, LogicalType type) {
    this(name, directoryName, position, type, !type.isNullable());
  }

  public PartitionColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(directoryName, "directoryName");
    Objects.requireNonNull(type, "type");
  }
}
