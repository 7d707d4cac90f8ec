/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The line protocol keeps every string, null apart from "null" and "\N", and one line a frame. */
class FrameTest {

  @Test
  void everyFieldSurvivesTheLine() {
    Frame frame =
        Frame.of(
            Frame.ROW,
            "plain",
            "",
            null,
            "null",
            "\\N",
            "tab\there",
            "lines\nand\r\n",
            "back\\",
            "ü€𝄞");

    String line = frame.encode();

    assertThat(line).doesNotContain("\n", "\r");
    assertThat(Frame.decode(line)).isEqualTo(frame);
    assertThat(Frame.decode(line).fields())
        .containsExactly(
            "plain", "", null, "null", "\\N", "tab\there", "lines\nand\r\n", "back\\", "ü€𝄞");
  }

  @Test
  void aRowOfNoColumnsDiffersFromARowOfOneEmptyString() {
    assertThat(Frame.decode(Frame.of(Frame.ROW).encode()).fields()).isEmpty();
    assertThat(Frame.decode(Frame.of(Frame.ROW, "").encode()).fields()).containsExactly("");
    assertThat(Frame.decode(Frame.of(Frame.ROW, (String) null).encode()).fields())
        .isEqualTo(Arrays.asList((String) null));
  }

  @Test
  void aBrokenEscapeIsRefused() {
    assertThatThrownBy(() -> Frame.decode("ROW\tbad\\x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown escape \\x");
    assertThatThrownBy(() -> Frame.decode("ROW\tbad\\"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lone backslash");
  }
}
