/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.write.PartitionValues;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.table.PartitionFieldExtractor;
import org.apache.flink.formats.parquet.ParquetColumnarRowInputFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * Flink's filesystem source with {@code flink-parquet}'s vectorized reader over the very data files
 * the Delta table's log adds, given to it one by one, so that it reads neither the log nor anything
 * the log does not hold. In the partitioned scenario the partition column comes from the files'
 * {@code country=...} directories, as Flink's filesystem tables take it. The floor for a Flink
 * reader of these files: no table to plan, no deletes, no column mapping.
 */
final class ParquetFilesContender implements ReadContender {

  static final String NAME = "parquet-files";

  /** The rows of a vectorized batch: Flink's default ({@code parquet.batch-size}). */
  private static final int BATCH_SIZE = 2048;

  @Override
  public Source<RowData, ?, ?> source(Path tables, Scenario scenario) throws IOException {
    List<Path> files = DeltaPathContender.addedFiles(ReadTables.deltaTable(tables));
    ParquetColumnarRowInputFormat<org.apache.flink.connector.file.src.FileSourceSplit> format =
        scenario.partitioned()
            ? ParquetColumnarRowInputFormat.createPartitionedFormat(
                HadoopConfigurations.of(Map.of()),
                BenchmarkRows.TYPE,
                producedType(),
                List.of(BenchmarkRows.PARTITION_COLUMN),
                PartitionFieldExtractor.forFileSystem(PartitionValues.NULL_DIRECTORY),
                BATCH_SIZE,
                true,
                true)
            : new ParquetColumnarRowInputFormat<>(
                HadoopConfigurations.of(Map.of()),
                BenchmarkRows.TYPE,
                producedType(),
                BATCH_SIZE,
                true,
                true);
    return FileSource.forBulkFileFormat(
            format,
            files.stream()
                .map(file -> new org.apache.flink.core.fs.Path(file.toUri()))
                .toArray(org.apache.flink.core.fs.Path[]::new))
        .build();
  }

  @Override
  public TypeInformation<RowData> producedType() {
    return InternalTypeInfo.of(BenchmarkRows.TYPE);
  }
}
