/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
