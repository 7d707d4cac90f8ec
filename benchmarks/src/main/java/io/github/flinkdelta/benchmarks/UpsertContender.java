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
