/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.sink.RecordedMetrics;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The append sink's in-job compaction as the committer drives it: commits only count, a due run
 * prepares its files on a thread of its own, and the rewrite lands right after a later commit, in a
 * version of its own that changes no row.
 */
class BackgroundCompactionTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  /** Generous: the run's pace is the machine's, the outcome is not. */
  private static final Duration LANDING_GUARD = Duration.ofMinutes(2);

  @TempDir Path dir;

  @Test
  void aDueRunLandsAfterALaterCommitInAVersionThatChangesNoRow() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration options = new Configuration();
    options.setString("sink.compaction.trigger.commits", "3");
    options.setString("sink.compaction.min-input-files", "2");
    DeltaSinkConfig config = SinkConfigs.compacting(path, TYPE, options);
    RecordedMetrics metrics = new RecordedMetrics();
    List<List<Object>> written = new ArrayList<>();
    long compactionVersion = -1;
    try (DeltaTable table = TestTables.open(path);
        BackgroundCompaction compaction =
            new BackgroundCompaction(config, metrics, System::nanoTime)) {
      long deadline = System.nanoTime() + LANDING_GUARD.toNanos();
      for (long checkpoint = 1; compactionVersion < 0; checkpoint++) {
        assertThat(System.nanoTime()).as("the compaction landed in time").isLessThan(deadline);
        List<RowData> rows = List.of(GenericRowData.of(checkpoint), GenericRowData.of(-checkpoint));
        rows.forEach(row -> written.add(List.of(row.getLong(0))));
        TestTables.committed(
            table.commit("app", checkpoint, TestTables.writeFiles(path, TYPE, List.of(), rows)));
        compaction.committed(table, "app");
        long latest = table.reload().getVersion();
        for (long version = latest; version > latest - 2 && version > 0; version--) {
          if (commitOf(version).contains("\"dataChange\":false")) {
            compactionVersion = version;
          }
        }
        Thread.sleep(50);
      }
    }

    String rewrite = commitOf(compactionVersion);
    assertThat(rewrite)
        .contains("\"remove\"")
        .contains("\"add\"")
        .doesNotContain("\"dataChange\":true");
    assertThat(rewrite).contains("app.compaction");
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(written);
    assertThat(metrics.gauge("lastCompactionDurationMs")).isGreaterThanOrEqualTo(0);
  }

  private String commitOf(long version) throws Exception {
    return Files.readString(
        dir.resolve("t").resolve("_delta_log").resolve(String.format("%020d.json", version)));
  }
}
