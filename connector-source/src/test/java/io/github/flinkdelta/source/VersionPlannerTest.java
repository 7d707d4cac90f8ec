/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.catalog.PathTableHistory;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner on real tables, version by version: appends become inserts, compaction reads nothing,
 * a poll stops at its file budget, and a new column goes on.
 */
class VersionPlannerTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void aSnapshotThenEachAppendingVersionIsPlannedAsTheFilesItAdds() throws Exception {
    String path = table("appends");
    append(path, 3);
    VersionPlanner planner = planner(path, 1000);

    VersionPlanner.Plan start = planner.start();
    assertThat(start.splits()).hasSize(3).allMatch(s -> s.rows() == DeltaSplit.Rows.INSERTED);
    assertThat(start.next()).isEqualTo(4);

    append(path, 2);
    VersionPlanner.Plan next = planner.next(start.next());
    assertThat(next.from()).isEqualTo(4);
    assertThat(next.next()).isEqualTo(6);
    assertThat(next.splits()).extracting(s -> s.file().version()).containsExactly(4L, 5L);
    assertThat(planner.next(6).splits()).as("nothing new").isEmpty();
    assertThat(planner.next(6).next()).isEqualTo(6);
  }

  @Test
  void aPollPlansNoMoreVersionsThanItsFileBudget() throws Exception {
    String path = table("budget");
    append(path, 5);
    VersionPlanner planner = planner(path, 2);

    VersionPlanner.Plan plan = planner.next(1);

    assertThat(plan.splits()).extracting(s -> s.file().version()).containsExactly(1L, 2L);
    assertThat(plan.next()).isEqualTo(3);
  }

  @Test
  void aCompactionReadsNothingAndANewColumnGoesOn() throws Exception {
    String path = table("rewritten");
    append(path, 4);
    VersionPlanner planner = planner(path, 1000);
    long compacted;
    long widened;
    try (DeltaTable table = TestTables.open(path)) {
      table.maintenance().compact(new CompactionOptions(1 << 20, 2, 1 << 30, 0.5), "compactor");
      compacted = table.snapshot().getVersion();
      widened = table.metadata().addColumns(List.of(new StructField("note", LongType.LONG, true)));
    }
    assertThat(compacted).isEqualTo(5);

    VersionPlanner.Plan plan = planner.next(5);

    assertThat(plan.splits()).isEmpty();
    assertThat(plan.next()).isEqualTo(widened + 1);
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }

  /** Commits {@code versions} versions of one file of one row each. */
  private static void append(String path, int versions) throws Exception {
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      for (int i = 0; i < versions; i++) {
        long version = table.snapshot().getVersion() + 1;
        List<RowData> rows = new ArrayList<>();
        rows.add(GenericRowData.of(version));
        TestTables.committed(
            table.commit("writer", version, TestTables.writeFiles(path, TYPE, List.of(), rows)));
      }
    }
  }

  private static VersionPlanner planner(String path, int maxFilesPerPoll) {
    Engine engine = DefaultEngine.create(new Configuration());
    Snapshot snapshot = new PathTableHistory(path).latest(engine);
    DeltaSourceConfig config =
        new DeltaSourceConfig(
            new PathTableLocator(path),
            Map.of(),
            ReadColumns.of(path, snapshot, List.of()),
            false,
            StartupMode.SNAPSHOT_THEN_INCREMENTAL,
            -1,
            -1,
            Duration.ofMillis(100),
            maxFilesPerPoll,
            2,
            ChangeCommits.FAIL,
            null,
            -1,
            null);
    return new VersionPlanner(config, new PathTableHistory(path), engine);
  }
}
