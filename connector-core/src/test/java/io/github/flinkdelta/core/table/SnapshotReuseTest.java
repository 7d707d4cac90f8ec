/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits reuse the snapshot the previous commit produced instead of reloading the table, and the
 * transaction that commit recorded instead of reading it back from the log.
 */
class SnapshotReuseTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void consecutiveCommitsLoadTheTableOnlyOnce() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    CountingLocator locator = new CountingLocator(path);

    try (DeltaTable table = DeltaTable.open(TableRequest.of(locator, conf))) {
      for (long checkpoint = 1; checkpoint <= 5; checkpoint++) {
        List<DataFile> files =
            TestTables.writeFiles(path, TYPE, List.of(), List.of(GenericRowData.of(checkpoint)));
        TestTables.committed(table.commit("app", checkpoint, files));
      }
      assertThat(table.snapshot().getVersion()).isEqualTo(5);
    }
    assertThat(CountingLocator.LOADS.get()).isEqualTo(1);
  }

  @Test
  void aCommitRightAfterTheSinksOwnTakesTheAppsLastTransactionFromItWithoutReadingTheLog()
      throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      TestTables.committed(table.commit("app", 1, rows(path, 1)));
      // Only a read of the log sees this: version 1 now says the app is at transaction 9.
      Path commit = dir.resolve("t/_delta_log/00000000000000000001.json");
      String json = Files.readString(commit);
      assertThat(json).contains("\"appId\":\"app\",\"version\":1,");
      Files.writeString(
          commit,
          json.replace("\"appId\":\"app\",\"version\":1,", "\"appId\":\"app\",\"version\":9,"));

      CommitOutcome.Committed second = TestTables.committed(table.commit("app", 2, rows(path, 2)));

      assertThat(second.tableVersion()).isEqualTo(2);
    }
    try (DeltaTable reopened = TestTables.open(path)) {
      assertThat(reopened.transactionVersion("app")).isEqualTo(2);
    }
  }

  @Test
  void aTransactionTheSinkCommittedIsFoundCommittedWhenReplayed() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      TestTables.committed(table.commit("app", 1, rows(path, 1)));
      TestTables.committed(table.commit("app", 2, rows(path, 2)));

      CommitOutcome replayed = table.commit("app", 2, rows(path, 2));

      assertThat(replayed).isEqualTo(new CommitOutcome.AlreadyCommitted(2, 2, 0));
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrder(List.of(1L), List.of(2L));
  }

  @Test
  void anotherWritersCommitBetweenTheSinksOwnIsNeitherLostNorDoubled() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      TestTables.committed(table.commit("app", 1, rows(path, 1)));
      try (DeltaTable other = TestTables.open(path)) {
        TestTables.committed(other.commit("other", 7, rows(path, 100)));
      }

      CommitOutcome.Committed second = TestTables.committed(table.commit("app", 2, rows(path, 2)));
      CommitOutcome replayed = table.commit("other", 7, rows(path, 100));

      assertThat(second.tableVersion()).isEqualTo(3);
      assertThat(replayed).isEqualTo(new CommitOutcome.AlreadyCommitted(3, 7, 0));
    }
    try (DeltaTable reopened = TestTables.open(path)) {
      assertThat(reopened.transactionVersion("app")).isEqualTo(2);
      assertThat(reopened.transactionVersion("other")).isEqualTo(7);
    }
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(List.of(1L), List.of(2L), List.of(100L));
  }

  private static List<DataFile> rows(String path, long id) throws Exception {
    return TestTables.writeFiles(path, TYPE, List.of(), List.of(GenericRowData.of(id)));
  }

  /** Counts full snapshot loads; a static counter because locators are serializable values. */
  private record CountingLocator(String path) implements TableLocator {
    static final AtomicInteger LOADS = new AtomicInteger();

    @Override
    public String name() {
      return path;
    }

    @Override
    public SnapshotSource snapshots(Configuration conf) {
      SnapshotSource delegate = new PathTableLocator(path).snapshots(conf);
      return new SnapshotSource() {
        @Override
        public Snapshot latest(Engine engine) {
          LOADS.incrementAndGet();
          return delegate.latest(engine);
        }
      };
    }
  }
}
