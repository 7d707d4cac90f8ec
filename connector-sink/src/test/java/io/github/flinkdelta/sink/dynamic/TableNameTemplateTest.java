/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Table names from templates: placeholders filled as they are, unknown and missing ones refused.
 */
class TableNameTemplateTest {

  private final TableNameTemplate template =
      TableNameTemplate.of("cdc_{db}.{table}", List.of("db", "table"), "the parts of a test");

  @Test
  void placeholdersAreFilledWithTheirPartsAsTheyAre() {
    Map<String, String> parts = Map.of("db", "shop$1", "table", "orders\\x");
    assertThat(template.fill(parts::get, "a test element")).isEqualTo("cdc_shop$1.orders\\x");
  }

  @Test
  void aPlaceholderNotAmongThoseAllowedIsRefusedNamingThem() {
    assertThatThrownBy(
            () -> TableNameTemplate.of("{db}.{topic}", List.of("db", "table"), "the parts of X"))
        .hasMessageContaining("{topic}")
        .hasMessageContaining("{db}, {table}, the parts of X");
  }

  @Test
  void aPartTheElementLacksIsRefusedNamingTheElement() {
    Map<String, String> parts = Map.of("db", "");
    assertThatThrownBy(() -> template.fill(parts::get, "event 42"))
        .hasMessageContaining("{db}")
        .hasMessageContaining("event 42");
  }
}
