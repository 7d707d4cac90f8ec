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
