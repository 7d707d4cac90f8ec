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
 * A sink under test in the upsert benchmark: it takes a changelog keyed by {@link
 * UpsertChangelog#KEY} and leaves a table of one row per live key, which its own reader reads back
 * with the deletes applied.
 */
interface UpsertContender {

  /** Creates the table under {@code dir}. */
  void prepare(Path dir, int parallelism) throws Exception;

  /** Adds the sink to the job; the changelog's order per key holds on the way in. */
  void attach(DataStream<RowData> changes);

  /**
   * Reads the table's current rows in this thread, with every delete applied, touching every column
   * of every row as the contender's reader hands it out.
   */
  UpsertChangelog.Contents read() throws Exception;

  /** The table's data files and delete files (deletion vectors, equality or position deletes). */
  TableFiles files() throws Exception;

  /**
   * @param data data files the table's current version reads
   * @param withDeletes those of them with deletes applying to them
   * @param deletes delete files the current version reads
   */
  record TableFiles(long data, long withDeletes, long deletes) {}

  static UpsertContender named(String name) {
    return switch (name) {
      case DeltaUpsertContender.NAME -> new DeltaUpsertContender();
      case IcebergUpsertContender.NAME -> new IcebergUpsertContender();
      case PaimonUpsertContender.NAME -> new PaimonUpsertContender();
      default ->
          throw new IllegalArgumentException(
              "Unknown upsert contender '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  List<String> NAMES =
      List.of(DeltaUpsertContender.NAME, IcebergUpsertContender.NAME, PaimonUpsertContender.NAME);
}
