/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.sink.DeltaSink;
import org.junit.jupiter.api.Test;

/** What the dynamic sink's builder refuses, and how it names it. */
class DynamicDeltaSinkBuilderTest {

  private static final DynamicRecordGenerator<String> NOTHING = (element, out) -> {};

  @Test
  void deadLetteringWithoutADeadLetterTableIsRefusedNamingTheOption() {
    assertThatThrownBy(
            () ->
                DeltaSink.dynamic(NOTHING)
                    .tableRoot("file:///tmp/warehouse")
                    .option(DynamicSinkOptions.REFUSED_RECORDS, RefusedRecordPolicy.DEAD_LETTER)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'sink.dynamic.dead-letter-table'");
  }

  @Test
  void aDeadLetterTableWhoseNameMakesNoTableIsRefused() {
    assertThatThrownBy(
            () ->
                DeltaSink.dynamic(NOTHING)
                    .tableRoot("file:///tmp/warehouse")
                    .option(DynamicSinkOptions.REFUSED_RECORDS, RefusedRecordPolicy.DEAD_LETTER)
                    .option(DynamicSinkOptions.DEAD_LETTER_TABLE, "ops.bad name")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'ops.bad name' does not make a path");
  }

  @Test
  void anOptionOfTheWholeSinkSetForOneTableIsRefused() {
    assertThatThrownBy(
            () ->
                DeltaSink.dynamic(NOTHING)
                    .tableRoot("file:///tmp/warehouse")
                    .tableOption("db.orders", DynamicSinkOptions.COMMIT_PARALLELISM, 8)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table db.orders")
        .hasMessageContaining("'sink.dynamic.commit-parallelism' applies to the whole sink");
  }
}
