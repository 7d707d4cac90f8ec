/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What a table is created with.
 *
 * @param schema the table's columns
 * @param partitionColumns the partition columns, in order
 * @param properties table properties, e.g. {@code delta.checkpointInterval}
 */
@Internal
public record TableDefinition(
    StructType schema, List<String> partitionColumns, Map<String, String> properties) {
  public TableDefinition {
    Objects.requireNonNull(schema, "schema");
    partitionColumns = List.copyOf(partitionColumns);
    properties = Map.copyOf(properties);
  }
}
