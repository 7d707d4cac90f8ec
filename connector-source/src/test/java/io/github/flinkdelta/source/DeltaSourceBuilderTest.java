/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link DeltaSourceBuilder#build} refuses, and how it says so. */
class DeltaSourceBuilderTest {

  @TempDir Path dir;

  @Test
  void everyMissingOrContradictorySettingIsListedAtOnce() {
    assertThatThrownBy(
            () ->
                DeltaSource.builder()
                    .tableName("main.default")
                    .bounded()
                    .option(DeltaSourceOptions.STARTUP_MODE, StartupMode.LATEST)
                    .option(DeltaSourceOptions.MAX_FILES_PER_POLL, 0)
                    .option(DeltaSourceOptions.MAX_PLANNING_FAILURES, -2)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot build DeltaSource: ")
        .hasMessageContaining("catalog.schema.table")
        .hasMessageContaining("set unityCatalog(...)")
        .hasMessageContaining("LATEST is for continuous reads")
        .hasMessageContaining("'scan.max-files-per-poll' must be at least 1")
        .hasMessageContaining("'scan.max-planning-failures' must be -1 (no limit) or more");
  }

  @Test
  void watermarksAreRefusedForAChangelogRead() {
    assertThatThrownBy(
            () ->
                DeltaSource.builder()
                    .tablePath(dir.toUri().toString())
                    .continuous()
                    .option(DeltaSourceOptions.CHANGE_COMMITS, ChangeCommits.CHANGELOG)
                    .watermarkColumn("at")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'scan.watermark-column' orders files by time")
        .hasMessageContaining("CHANGELOG");
  }

  @Test
  void aStartAtAVersionNeedsTheVersion() {
    assertThatThrownBy(
            () ->
                DeltaSource.builder()
                    .tablePath(dir.toUri().toString())
                    .option(DeltaSourceOptions.STARTUP_MODE, StartupMode.VERSION)
                    .build())
        .hasMessageContaining("set 'scan.startup.version'");
  }

  @Test
  void aMissingTableIsNamed() {
    String path = dir.resolve("none").toUri().toString();

    assertThatThrownBy(() -> DeltaSource.builder().tablePath(path).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot read Delta table at " + path)
        .hasMessageContaining("no table there");
  }
}
