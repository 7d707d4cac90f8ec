/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.benchmarks.GenerationProgress.Mark;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThroughputAfterWarmUpTest {

  private static final long MS = 1_000_000;

  @Test
  void measuresFromTheWarmUpToTheFirstSubtaskToFinish() {
    List<Mark> marks = new ArrayList<>();
    // Thread 1 marks every 100 ms until 3 s; thread 2 every 100 ms until 4 s. CPU runs at 2 cores.
    for (long t = 100; t <= 3_000; t += 100) {
      marks.add(new Mark(t * MS, 2 * t * MS, 1));
    }
    for (long t = 150; t <= 4_000; t += 100) {
      marks.add(new Mark(t * MS, 2 * t * MS, 2));
    }
    marks.sort(Comparator.comparingLong(Mark::nanoTime));

    ThroughputAfterWarmUp warm = ThroughputAfterWarmUp.of(marks, 0, 1_000 * MS, 10);

    // From 1,000 ms to 3,000 ms, where thread 1 stops: 21 + 20 marks, 40 intervals of 10 rows.
    assertThat(warm.rows()).isEqualTo(400);
    assertThat(warm.seconds()).isEqualTo(2.0);
    assertThat(warm.cpuSeconds()).isEqualTo(4.0);
    assertThat(warm.rowsPerSecond()).isEqualTo(200.0);
    assertThat(warm.rowsPerSecondPerCore()).isEqualTo(100.0);
  }

  @Test
  void aJobThatEndsDuringItsWarmUpHasNoFigure() {
    List<Mark> marks = List.of(new Mark(100 * MS, 0, 1), new Mark(200 * MS, 0, 1));

    ThroughputAfterWarmUp warm = ThroughputAfterWarmUp.of(marks, 0, 150 * MS, 10);

    assertThat(warm.rows()).isZero();
    assertThat(warm.rowsPerSecond()).isNaN();
    assertThat(warm.rowsPerSecondPerCore()).isNaN();
  }
}
