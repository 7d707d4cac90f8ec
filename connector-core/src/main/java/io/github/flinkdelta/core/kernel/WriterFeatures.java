/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The writer features of a table's protocol that change how data files are written, read through
 * Kernel's internal snapshot: Kernel 4.4's public accessor of the protocol is gone again on Delta's
 * main line (TableFeaturesITCase fails when this stops working).
 */
@Internal
public final class WriterFeatures {

  static final String MATERIALIZE_PARTITION_COLUMNS = "materializePartitionColumns";

  /** The table properties that make Iceberg compatibility active. */
  static final Set<String> ICEBERG_COMPAT =
      Set.of("delta.enableIcebergCompatV2", "delta.enableIcebergCompatV3");

  /** The table property that asks writers, without binding them, to materialize partitions. */
  static final String WRITE_PARTITION_COLUMNS = "delta.writePartitionColumnsToParquet";

  private WriterFeatures() {}

  /**
   * The clustering columns of a clustered table, as dot-separated logical paths; empty for a table
   * that is not clustered.
   */
  public static List<String> clusteringColumns(Snapshot snapshot) {
    return snapshot.getClusteringColumnInfos().orElse(List.of()).stream()
        .map(info -> String.join(".", info.getLogicalColumn().getNames()))
        .toList();
  }

  /** The writer features the protocol of {@code snapshot} lists. */
  static Set<String> of(Snapshot snapshot) {
    return ((SnapshotImpl) snapshot).getProtocol().getWriterFeatures();
  }

  /**
   * Whether data files of the table carry the partition columns too, after the data columns: the
   * protocol asks it with the {@code materializePartitionColumns} feature and Iceberg
   * compatibility, and the table property {@link #WRITE_PARTITION_COLUMNS} asks it without binding
   * (a writer honours it here).
   */
  public static boolean materializesPartitions(Snapshot snapshot) {
    Map<String, String> properties = snapshot.getTableProperties();
    return of(snapshot).contains(MATERIALIZE_PARTITION_COLUMNS)
        || ICEBERG_COMPAT.stream().anyMatch(p -> "true".equalsIgnoreCase(properties.get(p)))
        || "true".equalsIgnoreCase(properties.get(WRITE_PARTITION_COLUMNS));
  }
}
