package io.github.flinkdelta.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Files roll on row count and on size; codec, row group and page size reach the files. */
class FileRollingTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "text"});

  @TempDir Path dir;

  @Test
  void filesRollOnMaxRows() throws Exception {
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.MAX_ROWS_PER_FILE, 1_000L);
    List<DataFile> files = write("rows", options, 4_500);
    assertThat(files)
        .extracting(DataFile::numRecords)
        .containsExactly(1000L, 1000L, 1000L, 1000L, 500L);
  }

  @Test
  void filesRollOnTargetSize() throws Exception {
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.TARGET_FILE_SIZE, MemorySize.parse("64kb"));
    options.set(DeltaSinkOptions.ROW_GROUP_SIZE, MemorySize.parse("16kb"));
    options.set(DeltaSinkOptions.PAGE_SIZE, MemorySize.parse("4kb"));
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
  @EnumSource(FileWriteOptions.Compression.class)
  void compressionCodecReachesTheFile(FileWriteOptions.Compression codec) throws Exception {
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.COMPRESSION, codec);
    List<DataFile> files = write("codec-" + codec, options, 1_000);
    ParquetMetadata footer = footer("codec-" + codec, files.get(0));
    assertThat(footer.getBlocks().get(0).getColumns().get(0).getCodec())
        .isEqualTo(CompressionCodecName.valueOf(codec.name()));
    assertThat(files.get(0).path()).endsWith("." + codec.name().toLowerCase() + ".parquet");
  }

  private List<DataFile> write(String name, Configuration options, int rows) throws Exception {
    String path = dir.resolve(name).toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    DeltaTable table = DeltaTable.open(path, conf, true, TYPE, List.of(), Map.of());
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of()),
            conf,
            path,
            DeltaSinkOptions.fileWriteOptions(options),
            "roll")) {
      for (long i = 0; i < rows; i++) {
        // Random-looking text keeps the files from compressing to nothing.
        writer.write(
            GenericRowData.of(i, StringData.fromString(Long.toHexString(i * 0x9E3779B97F4A7C15L))));
      }
      return writer.flush().toList();
    }
  }

  private ParquetMetadata footer(String table, DataFile file) throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(dir.resolve(table).resolve(file.path()).toUri()),
                HadoopConfigurations.of(Map.of())))) {
      return reader.getFooter();
    }
  }
}
