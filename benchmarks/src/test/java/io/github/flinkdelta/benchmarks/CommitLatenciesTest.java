/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommitLatenciesTest {

  @Test
  void eachCheckpointIsVisibleAtItsLastCommitEventBeforeTheNextCompletes() {
    List<Long> completions = List.of(1_000L, 2_000L, 3_000L);
    // Checkpoint 1: one commit; checkpoint 2: files renamed in three steps; checkpoint 3: none.
    List<Long> commits = List.of(500L, 1_040L, 2_010L, 2_030L, 2_090L);

    assertThat(CommitLatencies.of(completions, commits)).containsExactly(40L, 90L);
    assertThat(CommitLatencies.of(completions, commits, 1_500L)).containsExactly(90L);
  }

  @Test
  void aCommitSlowerThanTheIntervalCountsFromItsOwnCheckpoint() {
    // Checkpoints 1, 2, 3 complete at 1 s, 2 s, 3 s; the commit of 1 (version 1) is visible only
    // at 2.1 s, after checkpoint 2 completed; the commit of 2 at 3.05 s; a final commit of no
    // completed checkpoint at 3.5 s.
    java.util.Map<Long, Long> completedAt = java.util.Map.of(1L, 1_000L, 2L, 2_000L, 3L, 3_000L);
    List<CommitObserver.Visible> commits =
        List.of(
            new CommitObserver.Visible(1, 2_100),
            new CommitObserver.Visible(2, 3_050),
            new CommitObserver.Visible(3, 3_500));
    java.util.Map<Long, Long> checkpointOfVersion =
        java.util.Map.of(1L, 1L, 2L, 2L, 3L, Long.MAX_VALUE);

    assertThat(
            CommitLatencies.ofOwnCheckpoints(
                completedAt, commits, checkpointOfVersion, Long.MIN_VALUE))
        .containsExactly(1_050L, 1_100L);
    assertThat(CommitLatencies.ofOwnCheckpoints(completedAt, commits, checkpointOfVersion, 1_500L))
        .containsExactly(1_050L);
    // Crediting each commit to the latest checkpoint before it would show 100 and 50 ms.
    assertThat(CommitLatencies.of(List.of(1_000L, 2_000L, 3_000L), List.of(2_100L, 3_050L)))
        .containsExactly(50L, 100L);
  }

  @Test
  void anObserverThatDiedFailsTheRunInsteadOfReportingFewerCommits() throws Exception {
    java.util.concurrent.atomic.AtomicInteger polls =
        new java.util.concurrent.atomic.AtomicInteger();
    CommitObserver observer =
        CommitObserver.versions(
            () -> {
              if (polls.incrementAndGet() > 2) {
                throw new IllegalStateException("catalog gone");
              }
              return polls.get();
            },
            1);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (polls.get() <= 2 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    observer.close();
    org.assertj.core.api.Assertions.assertThatThrownBy(observer::times)
        .hasMessageContaining("The commit observer stopped")
        .hasMessageContaining("catalog gone");
  }

  @Test
  void percentilesAreNearestRank() {
    List<Long> sorted = List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L, 100L);

    assertThat(CommitLatencies.percentile(sorted, 50)).isEqualTo(50);
    assertThat(CommitLatencies.percentile(sorted, 99)).isEqualTo(100);
    assertThat(CommitLatencies.percentile(List.of(), 50)).isNaN();
  }

  @Test
  void heapTrendDropsWarmUpAndFindsTheSlope() {
    // One sample a minute for an hour, growing 1 MB a minute after a 10-minute warm-up spike.
    List<long[]> samples = new java.util.ArrayList<>();
    for (int minute = 0; minute < 60; minute++) {
      long bytes = minute < 10 ? 500_000_000L : 100_000_000L + minute * 1_000_000L;
      samples.add(new long[] {minute * 60_000L, bytes});
    }

    HeapTrend trend = HeapTrend.of(samples, 0.2);

    assertThat(trend.slopeMbPerHour())
        .isCloseTo(60.0, org.assertj.core.api.Assertions.within(0.01));
    assertThat(trend.maxMb()).isEqualTo(159.0);
  }
}
