/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The dynamic committer's metrics, under group {@code delta}, bounded however many tables the sink
 * writes: tables committed, the tables it keeps open, and how long the last checkpoint's commits of
 * every table took together.
 */
final class DynamicCommitterMetrics {

  private final Counter tablesCommitted;
  private volatile long lastCommitDurationMs = -1;
  private volatile int openTables;

  DynamicCommitterMetrics(MetricGroup committerGroup) {
    MetricGroup delta = committerGroup.addGroup("delta");
    this.tablesCommitted = delta.counter("numTableVersionsCommitted");
    delta.gauge("lastCommitDurationMs", () -> lastCommitDurationMs);
    delta.gauge("openTables", () -> openTables);
  }

  void committed(int tables, long durationMs) {
    tablesCommitted.inc(tables);
    lastCommitDurationMs = durationMs;
  }

  void openTables(int count) {
    openTables = count;
  }
}
