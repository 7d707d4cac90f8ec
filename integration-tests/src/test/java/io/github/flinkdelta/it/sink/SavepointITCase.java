/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Stop-with-savepoint and resubmission under a new job id; restoring an older savepoint. */
class SavepointITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 5;
  private static final long ROWS = 8_000;

  @TempDir Path dir;

  @Test
  void resumingFromASavepointUnderANewJobIdNeitherDuplicatesNorLoses() throws Exception {
    String table = dir.resolve("resume").toUri().toString();

    JobClient first = start(table, null);
    String savepoint = stopAfterVersion(first, table, 2);
    assertThat(DeltaTableReader.readAll(table)).hasSizeLessThan((int) ROWS);

    JobClient second = start(table, savepoint);
    assertThat(second.getJobID()).isNotEqualTo(first.getJobID());
    second.getJobExecutionResult().get(2, TimeUnit.MINUTES);

    TestRows.assertTableHoldsExactly(table, ROWS, BUCKETS);
  }

  @ParameterizedTest(name = "resume at parallelism {0}")
  @ValueSource(ints = {1, 3})
  void rescalingFromASavepointNeitherDuplicatesNorLoses(int parallelism) throws Exception {
    String table = dir.resolve("rescale-" + parallelism).toUri().toString();

    String savepoint = stopAfterVersion(start(table, null, 2), table, 2);
    start(table, savepoint, parallelism).getJobExecutionResult().get(2, TimeUnit.MINUTES);

    TestRows.assertTableHoldsExactly(table, ROWS, BUCKETS);
  }

  @Test
  void restoringAnOlderSavepointAfterNewerCommitsFailsClearlyAndLosesNothing() throws Exception {
    String table = dir.resolve("rollback").toUri().toString();

    String older = stopAfterVersion(start(table, null), table, 2);
    String newer =
        stopAfterVersion(start(table, older), table, DeltaTableReader.version(table) + 2);
    assertThat(newer).isNotNull();
    List<List<Object>> before = DeltaTableReader.readAll(table);
    long versionBefore = DeltaTableReader.version(table);

    JobClient rollback = start(table, older);
    assertThatThrownBy(() -> rollback.getJobExecutionResult().get(2, TimeUnit.MINUTES))
        .satisfies(
            e -> {
              assertThat(ExceptionUtils.findThrowable(e, SuppressRestartsException.class))
                  .isPresent();
              assertThat(ExceptionUtils.stringifyException(e))
                  .contains("restored from checkpoint")
                  .contains("sink.app-id")
                  .contains(table);
            });

    assertThat(DeltaTableReader.version(table)).isEqualTo(versionBefore);
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(before);
  }

  @Test
  void anOlderSavepointRestoredUnderANewAppIdWritesOnAndRepeatsOnlyTheReplayedRows()
      throws Exception {
    String table = dir.resolve("new-app-id").toUri().toString();

    String older = stopAfterVersion(start(table, null), table, 2);
    int rowsAtOlder = DeltaTableReader.readAll(table).size();
    stopAfterVersion(start(table, older), table, DeltaTableReader.version(table) + 2);
    int rowsAtNewer = DeltaTableReader.readAll(table).size();
    assertThat(rowsAtNewer).isGreaterThan(rowsAtOlder);

    start(table, older, 2, "replay-after-rollback")
        .getJobExecutionResult()
        .get(2, TimeUnit.MINUTES);

    // Every row is there; the rows committed after the older savepoint are there twice.
    List<List<Object>> rows = DeltaTableReader.readAll(table);
    assertThat(rows).hasSize((int) ROWS + rowsAtNewer - rowsAtOlder);
    assertThat(new java.util.HashSet<>(rows))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(ROWS, BUCKETS));
    java.util.Map<List<Object>, Long> copies =
        rows.stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    r -> r, java.util.stream.Collectors.counting()));
    assertThat(copies.values()).allMatch(n -> n <= 2);
    assertThat(copies.values().stream().filter(n -> n == 2).count())
        .isEqualTo(rowsAtNewer - rowsAtOlder);
  }

  private JobClient start(String table, String savepoint) throws Exception {
    return start(table, savepoint, 2);
  }

  private JobClient start(String table, String savepoint, int parallelism) throws Exception {
    return start(table, savepoint, parallelism, null);
  }

  private JobClient start(String table, String savepoint, int parallelism, String appId)
      throws Exception {
    StreamExecutionEnvironment env =
        FLINK
            .job()
            .checkpointEveryMillis(100)
            .restarts(3)
            .parallelism(parallelism)
            .restoredFrom(savepoint)
            .env();
    DeltaSinkBuilder builder =
        DeltaSink.builder()
            .tablePath(table)
            .rowType(TestRows.TYPE)
            .partitionColumns("bucket")
            .uidPrefix("delta-sink");
    if (appId != null) {
      builder.option(DeltaSinkOptions.APP_ID, appId);
    }
    DeltaSink sink = builder.build();
    TestRows.source(env, ROWS, 1_000, BUCKETS).sinkTo(sink).uid("delta-sink");
    return env.executeAsync("savepoint test");
  }

  private String stopAfterVersion(JobClient job, String table, long version) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (versionOf(table) < version) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("table " + table + " never reached version " + version);
      }
      Thread.sleep(50);
    }
    return job.stopWithSavepoint(
            false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
        .get(1, TimeUnit.MINUTES);
  }

  private static long versionOf(String table) {
    try {
      return DeltaTableReader.version(table);
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
