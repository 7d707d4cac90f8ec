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

import io.github.flinkdelta.source.DeltaSource;
import java.nio.file.Path;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;

/** This project's {@link DeltaSource} reading the Delta table's latest version, bounded. */
final class DeltaSourceContender implements ReadContender {

  static final String NAME = "delta-source";

  private DeltaSource source;

  @Override
  public Source<RowData, ?, ?> source(Path tables, Scenario scenario) {
    source =
        DeltaSource.builder()
            .tablePath(ReadTables.deltaTable(tables).toUri().toString())
            .bounded()
            .build();
    return source;
  }

  @Override
  public TypeInformation<RowData> producedType() {
    return source.getProducedType();
  }
}
