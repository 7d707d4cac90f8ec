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
