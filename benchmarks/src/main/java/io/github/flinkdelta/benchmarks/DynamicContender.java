/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * A sink that writes many tables from one stream, creating each when its first record arrives:
 * attached to the job's rows, then asked once the job is done what each table's history is and what
 * it holds.
 */
interface DynamicContender extends AutoCloseable {

  /** Prepares the sink to write the workload's tables under {@code dir}; creates none of them. */
  void prepare(Path dir, DynamicWorkload workload, int parallelism) throws Exception;

  /** Adds the sink to the job. */
  void attach(DataStream<RowData> rows);

  /** The creation and the commits of each table the workload names that exists. */
  List<TableCommits> commits() throws Exception;

  /**
   * Adds every live row of table {@code table} to {@code digest}, every column decoded, every
   * delete applied.
   */
  void read(int table, RowDigest digest) throws Exception;

  @Override
  default void close() throws Exception {}

  /**
   * The contender of {@code name}.
   *
   * @param commitIntervalMs this sink's {@code sink.dynamic.commit-interval}; Iceberg's sink has
   *     none
   */
  static DynamicContender named(String name, long commitIntervalMs) {
    return switch (name) {
      case DeltaDynamicContender.NAME -> new DeltaDynamicContender(false, commitIntervalMs);
      case DeltaDynamicContender.CATALOG_NAME -> new DeltaDynamicContender(true, commitIntervalMs);
      case IcebergDynamicContender.NAME -> new IcebergDynamicContender();
      default ->
          throw new IllegalArgumentException(
              "Unknown dynamic contender '" + name + "'; known: " + String.join(", ", KNOWN));
    };
  }

  /** The contenders of a run that names none. */
  List<String> NAMES = List.of(DeltaDynamicContender.NAME, IcebergDynamicContender.NAME);

  /** Every contender, the default ones and the catalog flavour of this sink. */
  List<String> KNOWN =
      List.of(
          DeltaDynamicContender.NAME,
          DeltaDynamicContender.CATALOG_NAME,
          IcebergDynamicContender.NAME);
}
