/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.chaos.ChaosSchedule.Fault;
import io.github.flinkdelta.it.chaos.ChaosSchedule.Planned;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which faults a plan is certain to fire. */
class ChaosScheduleTest {

  @Test
  void aSeedAlwaysGivesTheSamePlan() {
    assertThat(ChaosSchedule.of(116)).isEqualTo(ChaosSchedule.of(116));
    assertThat(ChaosSchedule.of(116).faults()).hasSize(ChaosSchedule.MAX_FAULTS);
  }

  @Test
  void aFaultArmedAgainLaterIsNotCertainButWriterFailuresAddUp() {
    // 4000 rows: at least 10 s of generating, so faults armed within 7 s count.
    ChaosSchedule schedule =
        plan(
            4_000,
            fault(Fault.S3_SLOW_DOWN, 500),
            fault(Fault.WRITER_FAILS_MID_FILE, 500),
            fault(Fault.CATALOG_COMMIT_FAILS, 500),
            fault(Fault.S3_SLOW_DOWN, 500),
            fault(Fault.WRITER_FAILS_MID_FILE, 500));
    assertThat(schedule.certain())
        .containsExactlyInAnyOrder(
            Fault.WRITER_FAILS_MID_FILE, Fault.CATALOG_COMMIT_FAILS, Fault.S3_SLOW_DOWN);
    assertThat(
            plan(4_000, fault(Fault.S3_SLOW_DOWN, 500), fault(Fault.S3_SLOW_DOWN, 500)).certain())
        .containsExactly(Fault.S3_SLOW_DOWN);
    assertThat(
            plan(4_000, fault(Fault.S3_SLOW_DOWN, 500), fault(Fault.S3_SLOW_DOWN, 7_000)).certain())
        .isEmpty();
  }

  @Test
  void faultsArmedLateOrAfterATaskManagerLossAreNotCertain() {
    ChaosSchedule schedule =
        plan(
            4_000,
            fault(Fault.CATALOG_CREDENTIALS_FAIL, 6_500),
            fault(Fault.TASK_MANAGER_LOST, 600),
            fault(Fault.S3_CONNECTION_RESETS, 300));
    assertThat(schedule.certain()).containsExactly(Fault.CATALOG_CREDENTIALS_FAIL);
    assertThat(
            plan(4_000, fault(Fault.TASK_MANAGER_LOST, 300), fault(Fault.S3_SLOW_DOWN, 300))
                .certain())
        .containsExactly(Fault.TASK_MANAGER_LOST);
  }

  private static ChaosSchedule plan(long rows, Planned... faults) {
    return new ChaosSchedule(0, rows, List.of(faults));
  }

  private static Planned fault(Fault fault, int pauseMillis) {
    return new Planned(fault, pauseMillis, 1, 503, 0);
  }
}
