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
