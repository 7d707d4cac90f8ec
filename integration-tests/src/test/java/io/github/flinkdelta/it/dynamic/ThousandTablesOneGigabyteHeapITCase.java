/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One job writes 1,000 tables, each created as its first rows arrive, in a JVM whose whole heap
 * (job manager, task manager and test) is 1 GB (this class runs in a JVM of its own, see the
 * integration-tests POM); every row lands exactly once in its table. (Failures are the other
 * dynamic sink tests' subject; here they would only repeat the 1,000 creations and first commits.)
 */
class ThousandTablesOneGigabyteHeapITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int TABLES = 1_000;
  private static final long ROWS = 10_000;
  private static final int BUCKETS = 3;

  @TempDir Path dir;

  @Test
  void aThousandTablesInOneJobHoldEveryRowExactlyOnce() throws Exception {
    assertThat(Runtime.getRuntime().maxMemory()).isLessThanOrEqualTo(1L << 30);
    SpreadRows rows = new SpreadRows("many.", TABLES, 0, BUCKETS);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(500).env();
    TestRows.source(env, ROWS, 4_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(rows)
                .tableRoot(dir.toUri().toString())
                // Each table's rows reach one writer subtask, which alone resolves the table.
                .distributeBy(new ByTable(TABLES))
                .option(DynamicSinkOptions.COMMIT_PARALLELISM, 8)
                .build());
    env.execute("a thousand tables");

    Map<String, List<List<Object>>> expected = rows.expected(ROWS);
    assertThat(expected).hasSize(TABLES);
    long read = 0;
    for (Map.Entry<String, List<List<Object>>> table : expected.entrySet()) {
      List<List<Object>> actual =
          DeltaTableReader.readAll(
              dir.resolve(table.getKey().replace('.', '/')).toUri().toString());
      assertThat(actual)
          .as("rows of %s", table.getKey())
          .containsExactlyInAnyOrderElementsOf(table.getValue());
      read += actual.size();
    }
    assertThat(read).isEqualTo(ROWS);
  }

  /** Keys a row by the table it goes to. */
  private record ByTable(int tables) implements KeySelector<RowData, Integer> {
    @Override
    public Integer getKey(RowData row) {
      return (int) (row.getLong(0) % tables);
    }
  }
}
