/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * A table as a user names it, before it is known to exist: a path, or a name in a catalog. It finds
 * the table, or creates it. A {@link TableLocator} is the table once found.
 */
@Internal
public interface TableReference {

  /** The name the connector's commits carry as their engine in Delta's {@code commitInfo}. */
  String ENGINE_INFO = "flink-delta";

  /** The table as messages name it: a path, or a catalog name. */
  String name();

  /** Where the table would be, for messages: e.g. "Delta table at s3a://bucket/events". */
  String description();

  /** The table, or empty when there is none. */
  Optional<TableLocator> find(Configuration conf);

  /**
   * Creates the table as {@code definition} describes it. A table created at the same moment by
   * another writer is not an error: the table there is returned.
   *
   * @throws IllegalStateException when the location is not writable
   */
  TableLocator create(Configuration conf, TableDefinition definition);
}
