/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.snapshot.LogSegment;
import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long-lived table reloads its snapshot after a Delta checkpoint, or every hundred commits, so
 * that the log segment Kernel replays stays short. The segment is read through Kernel's internal
 * {@code SnapshotImpl}: a test of what Kernel keeps, which fails if Kernel changes it.
 */
class SnapshotReloadTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void aReloadAfterEachCheckpointKeepsTheLogSegmentShort() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    // Version 9 is checkpoint 8 plus one commit, as a fresh load sees it.
    LogSegment segment = segmentAfterNineCommits(path, true);
    assertThat(segment.getCheckpointVersionOpt()).contains(8L);
    assertThat(segment.getDeltas()).hasSize(1);
    try (DeltaTable loaded = TestTables.open(path)) {
      assertThat(((SnapshotImpl) loaded.snapshot()).getLogSegment().getDeltas()).hasSize(1);
      assertThat(loaded.transactionVersion("app")).isEqualTo(9);
    }
  }

  @Test
  void withoutReloadsTheSnapshotKeepsEveryCommitSinceItsLoad() throws Exception {
    // What reloadIfDue exists for: Kernel extends the loaded segment commit by commit.
    LogSegment segment = segmentAfterNineCommits(dir.resolve("t").toUri().toString(), false);
    assertThat(segment.getCheckpointVersionOpt()).isEmpty();
    assertThat(segment.getDeltas()).hasSize(10);
  }

  @Test
  void aTableCheckpointedByAnotherWriterIsReloadedAfterAHundredCommits() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    try (DeltaTable table = TestTables.open(path, conf)) {
      for (long version = 1; version <= ReloadPolicy.MAX_COMMITS_BETWEEN_RELOADS; version++) {
        DataFile file =
            new DataFile("part-" + version + ".parquet", 1_000, 1, Map.of(), "{\"numRecords\":1}");
        TestTables.committed(table.commit("app", version, List.of(file)));
        if (version == 50) {
          // Another process writes a checkpoint of version 50; this table writes none.
          try (DeltaTable other = TestTables.open(path, conf);
              DeltaCheckpoints theirs = other.checkpoints(50)) {
            theirs.committed(other.snapshot());
            TestTables.awaitCheckpoint(theirs, 50, 50);
            assertThat(theirs.latestCheckpointVersion()).isEqualTo(50);
          }
        }
        assertThat(table.reloadIfDue(-1)).isEqualTo(version == 100);
      }
      LogSegment segment = ((SnapshotImpl) table.snapshot()).getLogSegment();
      assertThat(segment.getCheckpointVersionOpt()).contains(50L);
      assertThat(segment.getDeltas()).hasSize(50);
    }
  }

  private static LogSegment segmentAfterNineCommits(String path, boolean reload) throws Exception {
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    try (DeltaTable table = TestTables.open(path, conf);
        DeltaCheckpoints checkpoints = table.checkpoints(4)) {
      for (long checkpoint = 1; checkpoint <= 9; checkpoint++) {
        TestTables.commitOneRow(TYPE, table, checkpoints, checkpoint);
        if (reload) {
          table.reloadIfDue(checkpoints.latestCheckpointVersion());
        }
        assertThat(table.snapshot().getVersion()).isEqualTo(checkpoint);
      }
      return ((SnapshotImpl) table.snapshot()).getLogSegment();
    }
  }
}
