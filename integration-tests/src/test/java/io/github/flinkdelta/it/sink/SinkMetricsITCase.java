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
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sink's metrics, read from a MiniCluster job through an in-memory reporter. */
class SinkMetricsITCase {

  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final FlinkCluster FLINK =
      FlinkCluster.of(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(4)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  @TempDir Path dir;

  @RegisterExtension final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension();

  @Test
  void writerAndCommitterMetricsMatchTheTable() throws Exception {
    long count = 3_000;
    String table = dir.resolve("metrics").toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, count, 3_000, 3)
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 2)
                .build());
    JobID job = env.execute("metrics").getJobID();

    // Writers: parallelism 2. Committer metrics exist only on the subtask that commits.
    assertThat(sumCounters(job, "numRecordsSend")).isEqualTo(count);
    assertThat(sumCounters(job, "numDataFilesWritten"))
        .isEqualTo(DeltaTableReader.fileCount(table));
    assertThat(sumCounters(job, "numDataBytesWritten"))
        .isEqualTo(DeltaTableReader.fileBytes(table))
        .isEqualTo(sumCounters(job, "numBytesSend"));
    assertThat(sumCounters(job, "numRecordsCommitted")).isEqualTo(count);
    assertThat(sumCounters(job, "numDataFilesCommitted"))
        .isEqualTo(DeltaTableReader.fileCount(table));
    assertThat(gaugeValues(job, "lastCommittedVersion"))
        .containsExactly(DeltaTableReader.version(table));
    assertThat(gaugeValues(job, "lastCommitDurationMs")).singleElement().matches(ms -> ms >= 0);
    assertThat(gaugeValues(job, "openFiles")).containsExactly(0L, 0L);
    assertThat(gaugeValues(job, "bufferedBytes")).containsExactly(0L, 0L);
    assertThat(gaugeValues(job, "lastFlushDurationMs")).hasSize(2).allMatch(ms -> ms >= 0);
    // Path tables publish nothing.
    assertThat(gaugeValues(job, "lastPublishDurationMs")).containsExactly(0L);
    assertThat(gaugeValues(job, "lastDeltaCheckpointVersion"))
        .containsExactly(DeltaTableReader.lastCheckpointVersion(table));
    assertThat(gaugeValues(job, "elapsedSecondsSinceLastSuccessfulCommit")).hasSize(1);
    assertThat(sumCounters(job, "numCommitRetries")).isZero();
    assertThat(sumCounters(job, "numCommitConflicts")).isZero();
  }

  @Test
  void catalogFailuresShowAsCommitRetries() throws Exception {
    UnityCatalogServer server = catalog.server();
    // The catalog client retries each call; four failures outlast one commit attempt.
    server
        .faults()
        .failNext("POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}", 4, 503);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).parallelism(1).env();
    TestRows.source(env, 1_000, 2_000, 3)
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(new UnityCatalogConnection(server.uri(), Secret.of("")))
                .tableName("main.default.retried")
                .rowType(TestRows.TYPE)
                .build());
    JobID job = env.execute("metrics on uc").getJobID();

    assertThat(sumCounters(job, "numCommitRetries")).isPositive();
    assertThat(sumCounters(job, "numRecordsCommitted")).isEqualTo(1_000);
    assertThat(gaugeValues(job, "lastPublishDurationMs")).singleElement().matches(ms -> ms >= 0);
  }

  private static long sumCounters(JobID job, String name) {
    return REPORTER.findMetrics(job, name).values().stream()
        .filter(Counter.class::isInstance)
        .mapToLong(m -> ((Counter) m).getCount())
        .sum();
  }

  private static java.util.List<Long> gaugeValues(JobID job, String name) {
    Map<String, Metric> metrics = REPORTER.findMetrics(job, name);
    return metrics.values().stream()
        .filter(Gauge.class::isInstance)
        .map(m -> ((Number) ((Gauge<?>) m).getValue()).longValue())
        .toList();
  }
}
