package io.github.flinkdelta.sink;

import java.time.Clock;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The committer's metrics, registered once under group {@code delta} / {@code table=<name>}:
 * duration and version of the last commit, seconds since the last successful commit, and the data
 * files and records committed. Flink's own committer group counts committables.
 */
final class DeltaCommitterMetrics {

  private final Clock clock;
  private final Counter filesCommitted;
  private final Counter recordsCommitted;
  private volatile long lastCommitDurationMs = -1;
  private volatile long lastCommittedVersion = -1;
  private volatile long lastSuccessMillis;

  DeltaCommitterMetrics(MetricGroup committerGroup, String table, Clock clock) {
    this.clock = clock;
    this.lastSuccessMillis = clock.millis();
    MetricGroup delta = committerGroup.addGroup("delta").addGroup("table", table);
    this.filesCommitted = delta.counter("numDataFilesCommitted");
    this.recordsCommitted = delta.counter("numRecordsCommitted");
    delta.gauge("lastCommitDurationMs", () -> lastCommitDurationMs);
    delta.gauge("lastCommittedVersion", () -> lastCommittedVersion);
    delta.gauge(
        "elapsedSecondsSinceLastSuccessfulCommit",
        () -> (clock.millis() - lastSuccessMillis) / 1000);
  }

  void committed(long version, long durationMs, int files, long records) {
    lastCommittedVersion = version;
    lastCommitDurationMs = durationMs;
    lastSuccessMillis = clock.millis();
    filesCommitted.inc(files);
    recordsCommitted.inc(records);
  }
}
