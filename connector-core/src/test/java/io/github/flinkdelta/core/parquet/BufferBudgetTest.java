package io.github.flinkdelta.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Open files across many partitions stay within the buffer budget, and no row is lost. */
class BufferBudgetTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new IntType(), new VarCharType(1000)},
          new String[] {"id", "bucket", "payload"});

  @TempDir Path dir;

  @Test
  void largestOpenFileIsCompletedWhenTheBudgetIsExceeded() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    DeltaTable table =
        DeltaTable.open(
            path, HadoopConfigurations.of(Map.of()), true, TYPE, List.of("bucket"), Map.of());
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    long budget = MemorySize.parse("2mb").getBytes();
    options.set(DeltaSinkOptions.BUFFER_BUDGET, new MemorySize(budget));
    FileWriteOptions writeOptions = DeltaSinkOptions.fileWriteOptions(options);

    int partitions = 100;
    long rows = 20_000;
    long maxBuffered = 0;
    List<DataFile> files;
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of("bucket")),
            HadoopConfigurations.of(Map.of()),
            path,
            writeOptions,
            "p")) {
      for (long i = 0; i < rows; i++) {
        writer.write(
            GenericRowData.of(
                i,
                (int) (i / 20 % partitions),
                StringData.fromString("payload " + i + " " + "y".repeat(60))));
        maxBuffered = Math.max(maxBuffered, writer.bufferedBytes());
      }
      files = writer.flush();
      assertThat(writer.openFileCount()).isZero();
      assertThat(writer.bufferedBytes()).isZero();
    }

    assertThat(maxBuffered).isLessThanOrEqualTo(budget);
    // Rows come in runs of 20 per partition; the budget closed files before the flush, so some
    // partitions hold several files.
    assertThat(files.size()).isGreaterThan(partitions);
    assertThat(files.stream().mapToLong(DataFile::numRecords).sum()).isEqualTo(rows);
  }
}
