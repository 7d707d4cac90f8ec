/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
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
 * heap, see the integration-tests POM), with more row data than the heap holds: one checkpoint at
 * the end, so without the buffer budget each subtask would keep every partition's rows (or an open
 * file) until then and run out of memory. The budget closes files early; no row is lost.
 */
class ManyPartitionsSmallHeapITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 400;
  private static final int PARALLELISM = 2;
  private static final long ROWS = 100_000;

  /** Payloads are 3 KB slices of one random text: 300 MB of row data that barely compresses. */
  private static final int PAYLOAD_BYTES = 3 * 1024;

  private static final String TEXT = randomText(1 << 20);

  @TempDir Path dir;

  @Test
  void bufferBudgetRollsFilesAndLosesNoRowOfMoreDataThanTheHeap() throws Exception {
    long heap = Runtime.getRuntime().maxMemory();
    assertThat(heap).isLessThan(300L << 20);
    assertThat(ROWS * PAYLOAD_BYTES).isGreaterThan(heap);
    String table = dir.resolve("many-partitions").toUri().toString();
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(600_000).parallelism(PARALLELISM).env();
    // Rows come in runs of ten per partition, so each partition is reopened several times.
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> GenericRowData.of(i, bucket(i), StringData.fromString(payload(i))),
            ROWS,
            InternalTypeInfo.of(TestRows.TYPE));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "runs")
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.BUFFER_BUDGET, MemorySize.parse("8mb"))
                .build());
    env.execute("many partitions");

    // Read back row by row: the table does not fit this JVM's heap either.
    BitSet seen = new BitSet((int) ROWS);
    long[] duplicates = {0};
    List<String> wrong = new ArrayList<>();
    DeltaTableReader.forEachRow(
        table,
        row -> {
          long id = (Long) row.get(0);
          if (seen.get((int) id)) {
            duplicates[0]++;
          }
          seen.set((int) id);
          if (!row.get(1).equals(bucket(id)) || !row.get(2).equals(payload(id))) {
            wrong.add("row " + id);
          }
        });
    assertThat(duplicates[0]).as("duplicates").isZero();
    assertThat(wrong).as("rows with other values").isEmpty();
    assertThat(seen.cardinality()).as("distinct ids").isEqualTo((int) ROWS);
    assertThat(seen.nextClearBit(0)).isEqualTo((int) ROWS);
    assertThat(DeltaTableReader.version(table)).isEqualTo(1);
    // At most one file per partition and subtask without the budget; the budget closed more.
    assertThat(DeltaTableReader.fileCount(table)).isGreaterThan((long) BUCKETS * PARALLELISM);
  }

  private static int bucket(long id) {
    return (int) (id / 10 % BUCKETS);
  }

  private static String payload(long id) {
    int start = (int) (id * 7919 % (TEXT.length() - PAYLOAD_BYTES));
    return TEXT.substring(start, start + PAYLOAD_BYTES);
  }

  private static String randomText(int length) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append((char) ('!' + random.nextInt(94)));
    }
    return text.toString();
  }
}
