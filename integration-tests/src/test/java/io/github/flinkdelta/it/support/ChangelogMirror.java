/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceBuilder;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A copy of a {@link Changelog}'s upsert table built only from a {@code CHANGELOG} read of its
 * whole history, from version 0, into an upsert sink: what a downstream mirror of the table holds.
 * A change committed in actions that say {@code dataChange = false} is never read as a change, so a
 * mirror that misses a delete hidden there keeps a key the table deleted.
 */
public final class ChangelogMirror {

  /** How long a mirror that differs from its table must stay unchanged to fail. */
  private static final Duration SETTLED = Duration.ofSeconds(30);

  private ChangelogMirror() {}

  private static List<List<Object>> readOrEmpty(String table) {
    try {
      return DeltaTableReader.readAll(table);
    } catch (RuntimeException notYetCreated) {
      return List.of();
    }
  }

  /** Waits until a mirror of the path table {@code table}, built at {@code copy}, equals it. */
  public static void assertMirrors(FlinkCluster flink, String table, String copy) throws Exception {
    assertMirrors(
        flink,
        DeltaSource.builder().tablePath(table),
        DeltaTableReader.readAll(table),
        table,
        copy);
  }

  /**
   * Waits until a mirror of the table {@code source} reads, built at {@code copy}, holds {@code
   * rows}, the table's.
   */
  public static void assertMirrors(
      FlinkCluster flink,
      DeltaSourceBuilder source,
      List<List<Object>> rows,
      String table,
      String copy)
      throws Exception {
    StreamExecutionEnvironment env = flink.job().checkpointEveryMillis(100).env();
    env.fromSource(
            source
                .continuous()
                .option(DeltaSourceOptions.STARTUP_MODE, StartupMode.VERSION)
                .option(DeltaSourceOptions.STARTUP_VERSION, 0L)
                .option(DeltaSourceOptions.CHANGE_COMMITS, ChangeCommits.CHANGELOG)
                .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(100))
                .build(),
            WatermarkStrategy.noWatermarks(),
            "changelog of " + table)
        .sinkTo(
            DeltaSink.builder().tablePath(copy).rowType(Changelog.TYPE).primaryKey("id").build());
    JobClient mirror = env.executeAsync("changelog mirror");
    try {
      // Equal as soon as the mirror has read the table's history; a mirror that stays different
      // for long after its last change has read what it will.
      Set<List<Object>> expected = new HashSet<>(rows);
      List<List<Object>> last = List.of();
      long lastChange = System.nanoTime();
      while (true) {
        List<List<Object>> copied = readOrEmpty(copy);
        if (copied.size() == rows.size() && new HashSet<>(copied).equals(expected)) {
          return;
        }
        if (!copied.equals(last)) {
          last = copied;
          lastChange = System.nanoTime();
        } else if (System.nanoTime() - lastChange > SETTLED.toNanos()) {
          Set<List<Object>> extra = new HashSet<>(copied);
          extra.removeAll(expected);
          Set<List<Object>> missing = new HashSet<>(expected);
          missing.removeAll(new HashSet<>(copied));
          assertThat(copied)
              .as(
                  "a mirror of %s from its changelog (%d rows it should not hold, %d missing;"
                      + " e.g. %s, %s)",
                  table,
                  extra.size(),
                  missing.size(),
                  extra.stream().limit(3).toList(),
                  missing.stream().limit(3).toList())
              .containsExactlyInAnyOrderElementsOf(rows);
          return;
        }
        if (mirror.getJobStatus().get().isGloballyTerminalState()) {
          mirror.getJobExecutionResult().get();
        }
        Thread.sleep(200);
      }
    } finally {
      mirror.cancel().get();
    }
  }
}
