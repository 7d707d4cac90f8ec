/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * A sink under test. It prepares its table before the job, attaches itself to the job's rows, and
 * tells when a commit becomes visible to readers.
 */
interface Contender extends AutoCloseable {

  /** Creates the table (where the sink has one) under {@code dir}. */
  void prepare(Path dir, Scenario scenario, RunSettings settings) throws Exception;

  /** Adds the sink to the job. */
  void attach(DataStream<RowData> rows);

  /** Starts watching for commits; called before the job is submitted. */
  CommitObserver observeCommits() throws IOException;

  /** The directory holding the committed data files and nothing else that ends in .parquet. */
  Path dataRoot();

  /**
   * The checkpoint id each table version committed, read from the table once the job is done; empty
   * where the sink records none (commit latency then falls back to the latest checkpoint completed
   * before each commit).
   */
  default java.util.Map<Long, Long> checkpointOfVersion() throws IOException {
    return java.util.Map.of();
  }

  /** The data files the table holds once the job is done, as its readers would find them. */
  java.util.List<Path> committedFiles() throws IOException;

  /**
   * How the rows the table holds once the job is done compare with the {@code rows} generated: by
   * the event ids of its committed files.
   */
  default LandedRows.Landing landing(long rows) throws IOException {
    return LandedRows.read(committedFiles(), rows);
  }

  @Override
  default void close() throws Exception {}

  /** Every contender by its name in results and on the command line. */
  static Contender named(String name) {
    return switch (name) {
      case DeltaPathContender.NAME -> new DeltaPathContender();
      case DeltaUnityCatalogContender.NAME -> new DeltaUnityCatalogContender();
      case FileSinkContender.NAME -> new FileSinkContender();
      case IcebergContender.NAME -> new IcebergContender();
      case DiscardingContender.NAME -> new DiscardingContender();
      default ->
          throw new IllegalArgumentException(
              "Unknown contender '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  java.util.List<String> NAMES =
      java.util.List.of(
          DeltaPathContender.NAME,
          DeltaUnityCatalogContender.NAME,
          FileSinkContender.NAME,
          IcebergContender.NAME,
          DiscardingContender.NAME);
}
