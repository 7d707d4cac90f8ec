/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/** Path tables of rows {@code (id BIGINT, text STRING)} written by one writer, for file tests. */
public final class IdTextTables {

  public static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "text"});

  private IdTextTables() {}

  /** Writes rows {@code (i, text(i))} for {@code i < rows} into a new table and flushes once. */
  public static List<DataFile> write(
      Path table, Configuration options, int rows, LongFunction<String> text) throws IOException {
    String path = table.toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    DeltaTable delta = TestTables.create(path, conf, TYPE, List.of(), Map.of());
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            delta.layoutFor(TYPE, List.of()), conf, path, FileWriteOptions.from(options), "test")) {
      for (long i = 0; i < rows; i++) {
        writer.write(GenericRowData.of(i, StringData.fromString(text.apply(i))));
      }
      return writer.flush().toList();
    }
  }

  public static org.apache.hadoop.fs.Path location(Path table, DataFile file) {
    return new org.apache.hadoop.fs.Path(table.resolve(file.path()).toUri());
  }

  public static ParquetMetadata footer(Path table, DataFile file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(location(table, file), HadoopConfigurations.of(Map.of())))) {
      return reader.getFooter();
    }
  }
}
