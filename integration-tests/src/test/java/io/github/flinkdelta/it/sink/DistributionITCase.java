/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions.Distribution;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code sink.distribution}: with HASH each partition is written by a single subtask. */
class DistributionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 6;

  @TempDir Path dir;

  @Test
  void hashDistributionGivesEachPartitionOneWriter() throws Exception {
    Map<String, Set<String>> writers = run("hash", Distribution.HASH);
    assertThat(writers).hasSize(BUCKETS);
    assertThat(writers.values()).allMatch(subtasks -> subtasks.size() == 1);
  }

  @Test
  void withoutDistributionEveryWriterWritesEveryPartition() throws Exception {
    Map<String, Set<String>> writers = run("none", Distribution.NONE);
    assertThat(writers).hasSize(BUCKETS);
    assertThat(writers.values()).allMatch(subtasks -> subtasks.size() == 2);
  }

  /** Runs a job and returns, per partition directory, the writer subtasks of its files. */
  private Map<String, Set<String>> run(String name, Distribution distribution) throws Exception {
    long count = 3_000;
    Path root = dir.resolve(name);
    String table = root.toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(60_000).env();
    // Rows reach the writers in runs of one row per bucket, the runs alternating between the two
    // writers, whichever source subtask read them: each writer is sent every bucket.
    TestRows.source(env, count, 1_000_000, BUCKETS)
        .partitionCustom(
            (Long id, int writers) -> (int) (id / BUCKETS % writers), row -> row.getLong(0))
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.DISTRIBUTION, distribution)
                .build());
    env.execute("distribution " + distribution);

    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
    Map<String, Set<String>> writers = new HashMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .forEach(
              p ->
                  writers
                      .computeIfAbsent(p.getParent().getFileName().toString(), k -> new HashSet<>())
                      // part-<subtask>-<uuid>-<n>.snappy.parquet
                      .add(p.getFileName().toString().substring(0, "part-00000".length())));
    }
    return writers;
  }
}
