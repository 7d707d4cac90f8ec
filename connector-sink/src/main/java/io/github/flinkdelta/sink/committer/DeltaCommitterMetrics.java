/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.sink.compaction.BackgroundCompaction;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The committer's metrics, registered under group {@code delta} / {@code table=<name>} of the one
 * committer subtask that commits: duration and version of the last commit, how long its publish
 * took, seconds since the table was last brought up to a completed checkpoint (by a commit, or by a
 * checkpoint with nothing to commit), the data files and records committed, commit retries and
 * conflicts, deletes settled by key after another writer moved or deleted their rows, and the
 * version of the last Delta checkpoint written. Flink's own committer group counts committables.
 */
@Internal
public final class DeltaCommitterMetrics {

  private final Clock clock;
  private final MetricGroup delta;
  private final Counter filesCommitted;
  private final Counter recordsCommitted;
  private final Counter retries;
  private final Counter conflicts;
  private final Counter staleDeletes;
  private volatile long lastPublishDurationMs = -1;
  private volatile LongSupplier deltaCheckpointVersion = () -> -1;
  private volatile long lastCommitDurationMs = -1;
  private volatile long lastCommittedVersion = -1;
  private volatile long lastSuccessMillis;

  public DeltaCommitterMetrics(MetricGroup committerGroup, String table, Clock clock) {
    this.clock = clock;
    this.lastSuccessMillis = clock.millis();
    this.delta = committerGroup.addGroup("delta").addGroup("table", table);
    this.filesCommitted = delta.counter("numDataFilesCommitted");
    this.recordsCommitted = delta.counter("numRecordsCommitted");
    delta.gauge("lastCommitDurationMs", () -> lastCommitDurationMs);
    delta.gauge("lastCommittedVersion", () -> lastCommittedVersion);
    delta.gauge("lastPublishDurationMs", () -> lastPublishDurationMs);
    delta.gauge("lastDeltaCheckpointVersion", () -> deltaCheckpointVersion.getAsLong());
    this.retries = delta.counter("numCommitRetries");
    this.conflicts = delta.counter("numCommitConflicts");
    this.staleDeletes = delta.counter("numStaleDeletesSettled");
    delta.gauge(
        "elapsedSecondsSinceLastSuccessfulCommit",
        () -> (clock.millis() - lastSuccessMillis) / 1000);
  }

  /** Reports {@code checkpoints}' latest version as {@code lastDeltaCheckpointVersion}. */
  void watch(DeltaCheckpoints checkpoints) {
    deltaCheckpointVersion = checkpoints::latestCheckpointVersion;
  }

  /** The sink's in-job compaction, its metrics in this group. */
  BackgroundCompaction compactionOf(DeltaSinkConfig config, ExecutorService shared) {
    return new BackgroundCompaction(config, delta, System::nanoTime, shared);
  }

  /** A completed checkpoint held no rows: the table is as current as the job. */
  void nothingToCommit() {
    lastSuccessMillis = clock.millis();
  }

  /** A commit call found its files committed already. */
  void alreadyCommitted(CommitOutcome.AlreadyCommitted outcome) {
    retries.inc(outcome.retries());
  }

  /** A commit settled {@code rows} deletes that another writer had made stale by key. */
  void staleDeletesSettled(long rows) {
    staleDeletes.inc(rows);
  }

  /** A commit call added its files. */
  void committed(CommitOutcome.Committed outcome, long durationMs, int files, long records) {
    retries.inc(outcome.retries());
    conflicts.inc(outcome.conflicts());
    lastCommittedVersion = outcome.tableVersion();
    lastCommitDurationMs = durationMs;
    lastPublishDurationMs = outcome.publishMillis();
    lastSuccessMillis = clock.millis();
    filesCommitted.inc(files);
    recordsCommitted.inc(records);
  }
}
