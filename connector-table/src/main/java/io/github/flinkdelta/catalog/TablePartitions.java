/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.read.SnapshotFiles;
import java.util.List;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.hadoop.conf.Configuration;

/**
 * The partitions of a Delta table as Flink's catalog lists them: those that hold a live file in the
 * latest version. Flink's batch planner lists them to estimate the size of a partitioned table it
 * has no statistics of.
 */
final class TablePartitions {

  private TablePartitions() {}

  static List<CatalogPartitionSpec> of(
      TableLocator table, Configuration hadoopConf, String catalog, ObjectPath path)
      throws TableNotPartitionedException {
    Configuration conf = table.readConf(hadoopConf);
    Engine engine = DefaultEngine.create(conf);
    try (TableHistory history = table.history(conf)) {
      Snapshot snapshot = history.latest(engine);
      if (snapshot.getPartitionColumnNames().isEmpty()) {
        throw new TableNotPartitionedException(catalog, path);
      }
      return SnapshotFiles.partitions(engine, snapshot, table.name()).stream()
          .map(CatalogPartitionSpec::new)
          .toList();
    }
  }
}
