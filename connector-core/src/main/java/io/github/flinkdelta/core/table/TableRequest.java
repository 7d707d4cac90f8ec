/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableReference;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * What {@link DeltaTable#open} opens: a table, the Hadoop configuration its storage is reached
 * through, what to create when it is missing, and how often a commit retries.
 *
 * @param table the table: a path or catalog name, or an already located table
 * @param hadoopConf storage options; a catalog may add vended credentials for the table
 * @param createIfMissing what to create when there is no table; empty to fail instead
 * @param maxCommitRetries times a commit is retried after a retryable failure before it fails
 */
@Internal
public record TableRequest(
    TableReference table,
    Configuration hadoopConf,
    Optional<TableDefinition> createIfMissing,
    int maxCommitRetries) {

  /** Kernel's retries of one commit after retryable failures, unless set. */
  public static final int DEFAULT_COMMIT_RETRIES = 10;

  public TableRequest {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(hadoopConf, "hadoopConf");
    Objects.requireNonNull(createIfMissing, "createIfMissing");
    if (maxCommitRetries < 0) {
      throw new IllegalArgumentException("maxCommitRetries must not be negative");
    }
  }

  /** Opens an existing table, with the default commit retries. */
  public static TableRequest of(TableReference table, Configuration hadoopConf) {
    return new TableRequest(table, hadoopConf, Optional.empty(), DEFAULT_COMMIT_RETRIES);
  }

  /** This request, creating the table as {@code definition} says when it is missing. */
  public TableRequest creatingIfMissing(TableDefinition definition) {
    return new TableRequest(table, hadoopConf, Optional.of(definition), maxCommitRetries);
  }

  /** This request with another number of commit retries. */
  public TableRequest withMaxCommitRetries(int retries) {
    return new TableRequest(table, hadoopConf, createIfMissing, retries);
  }
}
