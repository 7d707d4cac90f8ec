/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a long-lived table handle reloads its snapshot. */
class ReloadPolicyTest {

  private final ReloadPolicy policy = new ReloadPolicy();

  @Test
  void aNewDeltaCheckpointMakesAReloadDueOnce() {
    assertThat(policy.isDue(-1)).isFalse();
    assertThat(policy.isDue(10)).isTrue();
    policy.reloadedFor(10);
    assertThat(policy.isDue(10)).isFalse();
    assertThat(policy.isDue(9)).isFalse();
    assertThat(policy.isDue(20)).isTrue();
  }

  @Test
  void aHundredCommitsWithoutACheckpointMakeAReloadDue() {
    for (int i = 1; i < ReloadPolicy.MAX_COMMITS_BETWEEN_RELOADS; i++) {
      policy.committed();
      assertThat(policy.isDue(-1)).as("after %d commits", i).isFalse();
    }
    policy.committed();
    assertThat(policy.isDue(-1)).isTrue();
    policy.reloadedFor(-1);
    assertThat(policy.isDue(-1)).isFalse();
  }

  @Test
  void anyFreshLoadRestartsTheCommitCount() {
    for (int i = 0; i < ReloadPolicy.MAX_COMMITS_BETWEEN_RELOADS - 1; i++) {
      policy.committed();
    }
    policy.loaded();
    policy.committed();
    assertThat(policy.isDue(-1)).isFalse();
  }
}
