package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
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
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sink's metrics, read from a MiniCluster job through an in-memory reporter. */
class SinkMetricsITCase {

  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(4)
              .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
              .build());

  @TempDir Path dir;

  @Test
  void writerAndCommitterMetricsMatchTheTable() throws Exception {
    long count = 3_000;
    String table = dir.resolve("metrics").toUri().toString();
    StreamExecutionEnvironment env = MiniClusters.env(200, 0, 2);
    TestRows.source(env, count, 3_000, 3)
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .build());
    JobID job = env.execute("metrics").getJobID();

    assertThat(sumCounters(job, "numRecordsSend")).isEqualTo(count);
    assertThat(sumCounters(job, "numDataFilesWritten"))
        .isEqualTo(DeltaTableReader.fileCount(table));
    assertThat(sumCounters(job, "numRecordsCommitted")).isEqualTo(count);
    assertThat(sumCounters(job, "numDataFilesCommitted"))
        .isEqualTo(DeltaTableReader.fileCount(table));
    assertThat(gaugeValues(job, "lastCommittedVersion")).contains(DeltaTableReader.version(table));
    assertThat(gaugeValues(job, "lastCommitDurationMs")).anyMatch(ms -> ms >= 0);
    assertThat(gaugeValues(job, "openFiles")).containsOnly(0L);
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
