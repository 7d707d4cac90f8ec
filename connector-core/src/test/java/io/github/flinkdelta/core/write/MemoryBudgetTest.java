/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The writer's memory budget: the sum of its holders' shares, against a limit. */
class MemoryBudgetTest {

  @Test
  void sharesAddUpAndReturnTheirBytesWhenReleased() {
    MemoryBudget budget = new MemoryBudget(1_000);
    MemoryBudget.Share file = budget.share();
    MemoryBudget.Share held = budget.share();

    file.resize(600);
    held.grow(300);
    held.grow(50);
    assertThat(budget.usedBytes()).isEqualTo(950);
    assertThat(budget.exceeded()).isFalse();

    file.resize(700);
    assertThat(budget.usedBytes()).isEqualTo(1_050);
    assertThat(budget.exceeded()).isTrue();

    file.release();
    assertThat(file.bytes()).isZero();
    assertThat(budget.usedBytes()).isEqualTo(350);
    assertThat(budget.exceeded()).isFalse();
  }

  @Test
  void shrinkingStopsAtNineTenthsOfTheLimit() {
    MemoryBudget budget = new MemoryBudget(1_000);
    MemoryBudget.Share share = budget.share();

    share.resize(901);
    assertThat(budget.shrunkEnough()).isFalse();
    share.resize(900);
    assertThat(budget.shrunkEnough()).isTrue();
  }

  @Test
  void aBudgetMustBePositive() {
    assertThatThrownBy(() -> new MemoryBudget(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("positive");
  }
}
