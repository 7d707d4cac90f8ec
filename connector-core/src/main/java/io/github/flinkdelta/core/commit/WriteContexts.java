/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.write.PartitionLiterals;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kernel's write context of each partition, kept from commit to commit while the table's schema,
 * partition columns and properties stay the same. A context is the partition's directory, its
 * partition values and the statistics columns, all derived from the table's metadata; Kernel parses
 * the whole table schema to make one, which a commit of many partitions would otherwise do for each
 * of them. The most recently used {@link #MAX_CONTEXTS} are kept.
 *
 * <p>Not thread-safe: it belongs to the one thread that commits.
 */
final class WriteContexts {

  static final int MAX_CONTEXTS = 1_024;

  private final Map<Map<String, String>, DataWriteContext> contexts =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(
            Map.Entry<Map<String, String>, DataWriteContext> eldest) {
          return size() > MAX_CONTEXTS;
        }
      };
  private StructType schema;
  private List<String> partitionColumns;
  private Map<String, String> properties;

  /** Makes the contexts valid for a transaction on {@code snapshot}, dropping stale ones. */
  void validFor(Snapshot snapshot) {
    StructType newSchema = snapshot.getSchema();
    List<String> newPartitionColumns = snapshot.getPartitionColumnNames();
    Map<String, String> newProperties = snapshot.getTableProperties();
    if (!newSchema.equals(schema)
        || !newPartitionColumns.equals(partitionColumns)
        || !newProperties.equals(properties)) {
      contexts.clear();
      schema = newSchema;
      partitionColumns = newPartitionColumns;
      properties = newProperties;
    }
  }

  /** The context of {@code partition}, made from the transaction's {@code state} if not kept. */
  DataWriteContext of(Engine engine, Row state, Map<String, String> partition) {
    DataWriteContext context = contexts.get(partition);
    if (context == null) {
      context = Transaction.getWriteContext(engine, state, PartitionLiterals.of(partition, schema));
      contexts.put(partition, context);
    }
    return context;
  }
}
