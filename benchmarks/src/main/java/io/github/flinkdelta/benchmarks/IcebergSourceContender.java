/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.source.IcebergSource;

/**
 * Apache Iceberg's FLIP-27 {@code IcebergSource} reading the Iceberg table's current snapshot,
 * bounded (its default), with its default split planning.
 */
final class IcebergSourceContender implements ReadContender {

  static final String NAME = "iceberg-source";

  @Override
  public Source<RowData, ?, ?> source(Path tables, Scenario scenario) {
    return IcebergSource.forRowData()
        .tableLoader(
            TableLoader.fromHadoopTable(
                IcebergContender.location(tables).toUri().toString(),
                IcebergContender.hadoopConf()))
        .build();
  }

  @Override
  public TypeInformation<RowData> producedType() {
    return InternalTypeInfo.of(BenchmarkRows.TYPE);
  }
}
