/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;

/**
 * A bounded reader under test in the read section: a Flink source of every row of the tables {@link
 * ReadTables} wrote, with the type of the rows it produces.
 */
interface ReadContender {

  /** The source of every row of the tables in {@code tables}. */
  Source<RowData, ?, ?> source(Path tables, Scenario scenario) throws Exception;

  /** The type of the rows the source produces. */
  TypeInformation<RowData> producedType();

  static ReadContender named(String name) {
    return switch (name) {
      case DeltaSourceContender.NAME -> new DeltaSourceContender();
      case IcebergSourceContender.NAME -> new IcebergSourceContender();
      case ParquetFilesContender.NAME -> new ParquetFilesContender();
      default ->
          throw new IllegalArgumentException(
              "Unknown reader '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  List<String> NAMES =
      List.of(DeltaSourceContender.NAME, IcebergSourceContender.NAME, ParquetFilesContender.NAME);
}
