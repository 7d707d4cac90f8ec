package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many partitions per writer subtask on a small heap (this class runs in its own JVM with a 256 MB
 * heap, see the integration-tests POM): the buffer budget closes files early instead of letting
 * open files fill the heap, and no row is lost.
 */
class ManyPartitionsSmallHeapITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 400;
  private static final int PARALLELISM = 2;

  @TempDir Path dir;

  @Test
  void bufferBudgetRollsFilesAndLosesNoRow() throws Exception {
    assertThat(Runtime.getRuntime().maxMemory()).isLessThan(300L << 20);
    long count = 40_000;
    String table = dir.resolve("many-partitions").toUri().toString();
    // One checkpoint at the end: without the budget, each subtask would hold every partition's
    // rows (or an open file) until then.
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(600_000).parallelism(PARALLELISM).env();
    // Rows come in runs of ten per partition, so each partition is reopened several times.
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> GenericRowData.of(i, (int) (i / 10 % BUCKETS), StringData.fromString("p-" + i)),
            count,
            InternalTypeInfo.of(TestRows.TYPE));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "runs")
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.BUFFER_BUDGET, MemorySize.parse("256kb"))
                .build());
    env.execute("many partitions");

    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      expected.add(List.of(i, (int) (i / 10 % BUCKETS), "p-" + i));
    }
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(DeltaTableReader.version(table)).isEqualTo(1);
    // At most one file per partition and subtask without the budget; the budget closed more.
    assertThat(DeltaTableReader.fileCount(table)).isGreaterThan((long) BUCKETS * PARALLELISM);
  }
}
