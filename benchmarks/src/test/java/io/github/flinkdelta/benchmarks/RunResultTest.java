/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which repetition reports a contender. */
class RunResultTest {

  @Test
  void ofTwoRepetitionsTheSlowerAfterWarmUpIsReportedWithBoth() {
    RunResult median = RunResult.median(List.of(run(100, 90), run(80, 95)));

    assertThat(median.rowsPerSecondAfterWarmUp()).isEqualTo(90);
    assertThat(median.rowsPerSecondOfRepetitions()).containsExactly(100, 80);
    assertThat(median.rowsPerSecondAfterWarmUpOfRepetitions()).containsExactly(90, 95);
  }

  @Test
  void whenARepetitionEndedBeforeItsWarmUpWholeJobThroughputDecides() {
    RunResult median = RunResult.median(List.of(run(100, 90), run(80, Double.NaN), run(120, 70)));

    assertThat(median.rowsPerSecond()).isEqualTo(100);
  }

  private static RunResult run(double rowsPerSecond, double afterWarmUp) {
    return new RunResult(
        "contender",
        "scenario",
        1,
        0,
        0,
        1,
        rowsPerSecond,
        1,
        1,
        1,
        ThreadCpu.PerRow.NONE,
        afterWarmUp,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        "SNAPPY",
        2,
        1000,
        1,
        false,
        2,
        "17",
        null,
        null);
  }
}
