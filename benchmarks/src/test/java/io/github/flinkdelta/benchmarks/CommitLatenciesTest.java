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
