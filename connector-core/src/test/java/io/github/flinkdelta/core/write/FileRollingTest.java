/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.testing.IdTextTables;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Files roll on row count and on size; codec, row group and page size reach the files. */
class FileRollingTest {

  @TempDir Path dir;

  @Test
  void filesRollOnMaxRows() throws Exception {
    Configuration options = new Configuration();
    options.set(TableWriteOptions.MAX_ROWS_PER_FILE, 1_000L);
    List<DataFile> files = write("rows", options, 4_500);
    assertThat(files)
        .extracting(DataFile::numRecords)
        .containsExactly(1000L, 1000L, 1000L, 1000L, 500L);
  }

  @Test
  void filesRollOnTargetSize() throws Exception {
    Configuration options = new Configuration();
    options.set(TableWriteOptions.TARGET_FILE_SIZE, MemorySize.parse("64kb"));
    options.set(TableWriteOptions.ROW_GROUP_SIZE, MemorySize.parse("16kb"));
    options.set(TableWriteOptions.PAGE_SIZE, MemorySize.parse("4kb"));
    List<DataFile> files = write("size", options, 20_000);
    assertThat(files.size()).isGreaterThan(3);
    assertThat(files.stream().mapToLong(DataFile::numRecords).sum()).isEqualTo(20_000);
    // Every file but the last reached the target; none overshoots by more than a row group.
    for (DataFile file : files.subList(0, files.size() - 1)) {
      assertThat(file.sizeBytes()).isBetween(60_000L, 64L * 1024 + 20_000);
    }
    ParquetMetadata footer = footer("size", files.get(0));
    assertThat(footer.getBlocks().size()).isGreaterThan(1);
    for (BlockMetaData block : footer.getBlocks()) {
      assertThat(block.getCompressedSize()).isLessThan(32 * 1024);
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void compressionCodecReachesTheFile(Compression codec) throws Exception {
    Configuration options = new Configuration();
    options.set(TableWriteOptions.COMPRESSION, codec);
    List<DataFile> files = write("codec-" + codec, options, 1_000);
    ParquetMetadata footer = footer("codec-" + codec, files.get(0));
    assertThat(footer.getBlocks().get(0).getColumns().get(0).getCodec())
        .isEqualTo(CompressionCodecName.valueOf(codec.name()));
    assertThat(files.get(0).path()).endsWith("." + codec.name().toLowerCase() + ".parquet");
  }

  private List<DataFile> write(String name, Configuration options, int rows) throws Exception {
    // Random-looking text keeps the files from compressing to nothing.
    return IdTextTables.write(
        dir.resolve(name), options, rows, i -> Long.toHexString(i * 0x9E3779B97F4A7C15L));
  }

  private ParquetMetadata footer(String table, DataFile file) throws Exception {
    return IdTextTables.footer(dir.resolve(table), file);
  }
}
