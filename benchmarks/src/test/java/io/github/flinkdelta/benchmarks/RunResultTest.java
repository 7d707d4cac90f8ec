/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
