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
