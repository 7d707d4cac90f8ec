/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FaultyCommitSink;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures at each step of the protocol; every run ends with exactly the generated rows in the
 * table, each once.
 */
@Tag("smoke")
class ExactlyOnceITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 7;

  @TempDir Path dir;

  @Test
  void repeatedTaskFailuresAfterSomeRecords(@InjectMiniCluster MiniCluster cluster)
      throws Exception {
    long count = 6_000;
    String table = table("task-failures");
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .map(new FailingMapper(injected, 3, 700))
        .sinkTo(sink(table));
    JobID job = env.execute("repeated task failures").getJobID();

    // Each of the first three attempts failed (by one or both of its two mappers); the fourth ran
    // to the end.
    assertThat(injected.count()).isBetween(3, 6);
    assertThat(cluster.getArchivedExecutionGraph(job).get().getAllExecutionVertices())
        .extracting(v -> v.getCurrentExecutionAttempt().getAttemptNumber())
        .containsOnly(3);
    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  @Test
  void failureAfterTheCheckpointCompletesButBeforeTheCommit() throws Exception {
    long count = 3_000;
    String table = table("before-commit");
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .sinkTo(
            new FaultyCommitSink(sink(table), injected, FaultyCommitSink.When.BEFORE_COMMIT, 2, 3));
    env.execute("failure before commit");

    assertThat(injected.count()).isEqualTo(2);
    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  @Test
  void failureDuringTheCommitAfterItLanded() throws Exception {
    long count = 3_000;
    String table = table("after-commit");
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .sinkTo(
            new FaultyCommitSink(sink(table), injected, FaultyCommitSink.When.AFTER_COMMIT, 2, 3));
    env.execute("failure after commit");

    assertThat(injected.count()).isEqualTo(2);
    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  @Test
  void twoJobsOnOneTableWhileOneFailsRepeatedly() throws Exception {
    long count = 3_000;
    String table = table("two-jobs");
    DeltaSink first = sink(table);
    DeltaSink second = sink(table);
    StreamExecutionEnvironment steady = FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    TestRows.source(steady, count, 2_000, BUCKETS).sinkTo(first);
    StreamExecutionEnvironment failing =
        FLINK.job().checkpointEveryMillis(100).restarts(5).parallelism(1).env();
    TestRows.source(failing, count, 2_000, BUCKETS)
        .map(row -> TestRows.row(row.getLong(0) + count, BUCKETS))
        .returns(org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(TestRows.TYPE))
        .map(new FailingMapper(injected, 3, 500))
        .sinkTo(second);
    var steadyJob = steady.executeAsync("steady writer");
    var failingJob = failing.executeAsync("failing writer");
    steadyJob.getJobExecutionResult().get();
    failingJob.getJobExecutionResult().get();

    assertThat(injected.count()).isGreaterThanOrEqualTo(3);
    TestRows.assertTableHoldsExactly(table, 2 * count, BUCKETS);
  }

  @Test
  void boundedBatchJobCommitsItsRowsAtTheEnd() throws Exception {
    long count = 5_000;
    String table = table("batch");
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    TestRows.source(env, count, 1_000_000, BUCKETS).sinkTo(sink(table));
    env.execute("batch");

    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
    assertThat(DeltaTableReader.version(table)).isEqualTo(1);
  }

  @Test
  void boundedStreamingJobCommitsItsLastRows() throws Exception {
    long count = 2_000;
    String table = table("streaming-end");
    // Checkpoints are rare: most rows are only committed by the final checkpoint.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(60_000).env();
    TestRows.source(env, count, 1_000_000, BUCKETS).sinkTo(sink(table));
    env.execute("bounded streaming");

    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  @Test
  void checkpointsWithoutRowsCommitNothing(@InjectMiniCluster MiniCluster cluster)
      throws Exception {
    String table = table("empty");
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(50).env();
    TestRows.source(env, 3, 10, BUCKETS).sinkTo(sink(table));
    JobID job = env.execute("mostly empty").getJobID();

    TestRows.assertTableHoldsExactly(table, 3, BUCKETS);
    // Version 0 creates the table; every later version adds files. Three rows arrive over about
    // 300 ms while checkpoints come every 50 ms: most checkpoints held no rows and made no version.
    long versions = DeltaTableReader.version(table);
    for (long v = 1; v <= versions; v++) {
      assertThat(
              java.nio.file.Files.readAllLines(
                      dir.resolve("empty/_delta_log").resolve(String.format("%020d.json", v)))
                  .stream()
                  .filter(line -> line.startsWith("{\"add\""))
                  .count())
          .as("files added by version %d", v)
          .isPositive();
    }
    long checkpoints =
        cluster
            .getArchivedExecutionGraph(job)
            .get()
            .getCheckpointStatsSnapshot()
            .getCounts()
            .getNumberOfCompletedCheckpoints();
    assertThat(checkpoints).isGreaterThan(versions);
  }

  @Test
  void twoJobsUnderOneConfiguredAppIdStopRatherThanDropRows() throws Exception {
    String table = table("shared-app-id");
    DeltaSink.builder().tablePath(table).rowType(TestRows.TYPE).partitionColumns("bucket").build();
    long count = 1_500;
    List<org.apache.flink.core.execution.JobClient> jobs = new java.util.ArrayList<>();
    for (long offset : new long[] {0, count}) {
      StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
      TestRows.source(env, count, 1_500, BUCKETS)
          .map(row -> TestRows.row(row.getLong(0) + offset, BUCKETS))
          .returns(org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(TestRows.TYPE))
          .sinkTo(
              DeltaSink.builder()
                  .tablePath(table)
                  .rowType(TestRows.TYPE)
                  .partitionColumns("bucket")
                  .option(io.github.flinkdelta.sink.DeltaSinkOptions.APP_ID, "shared")
                  .build());
      jobs.add(env.executeAsync("shared app id " + offset));
    }

    // Whichever job finds the other's commits ahead of its own checkpoints stops and says why;
    // every job that finished has all its rows in the table, and no row is there twice.
    java.util.Set<List<Object>> rows = new java.util.HashSet<>();
    int failed = 0;
    for (int i = 0; i < jobs.size(); i++) {
      try {
        jobs.get(i).getJobExecutionResult().get();
        List<List<Object>> expected = TestRows.expected(2 * count, BUCKETS);
        rows.addAll(expected.subList((int) (i * count), (int) ((i + 1) * count)));
      } catch (java.util.concurrent.ExecutionException e) {
        failed++;
        assertThat(org.apache.flink.util.ExceptionUtils.stringifyException(e))
            .containsAnyOf(
                "another job is committing under the same app id",
                "already holds commits of app id shared");
      }
    }
    List<List<Object>> all = DeltaTableReader.readAll(table);
    assertThat(failed).isPositive();
    assertThat(new java.util.HashSet<>(all)).hasSize(all.size()).containsAll(rows);
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }

  private static DeltaSink sink(String table) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }
}
