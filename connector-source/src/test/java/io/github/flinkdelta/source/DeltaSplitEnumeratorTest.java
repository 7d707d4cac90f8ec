/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableHistory;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.read.WatermarkColumn;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The enumerator driven by hand: the order it assigns files in when a read takes watermarks, and
 * how it lives through polls that fail.
 */
class DeltaSplitEnumeratorTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new LocalZonedTimestampType(6)},
          new String[] {"id", "at"});

  private static final long HOUR = 3_600_000L;
  private static final long BASE = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void aReadWithWatermarksGetsItsFilesOldestFirstThoughTheTableWroteThemNewestFirst()
      throws Exception {
    String path = dir.resolve("descending").toUri().toString();
    // Versions 1 to 4 hold hours 4, 3, 2 and 1 after BASE; version 5 (planned by a poll) hours 0
    // and 6 in two files.
    writeHours(path, 4, 3, 2, 1);
    TestingSplitEnumeratorContext<DeltaSplit> context = new TestingSplitEnumeratorContext<>(1);
    context.registerReader(0, "localhost");
    try (DeltaSplitEnumerator enumerator =
        new DeltaSplitEnumerator(
            context, config(new PathTableLocator(path), path, true), initial())) {
      enumerator.start();
      context.getExecutorService().triggerPeriodicScheduledTasks();
      context.triggerAllActions();
      writeHours(path, 0);
      writeHours(path, 6);
      context.getExecutorService().triggerPeriodicScheduledTasks();
      context.triggerAllActions();

      List<Long> assigned = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        enumerator.handleSplitRequest(0, "localhost");
      }
      for (DeltaSplit split : context.getSplitAssignments().get(0).getAssignedSplits()) {
        assigned.add((split.file().minTimestamp() - BASE) / HOUR);
      }
      assertThat(assigned).containsExactly(0L, 1L, 2L, 3L, 4L, 6L);
    }
  }

  @Test
  void aFailedPollIsTriedAgainAndOnlyMoreFailuresInARowThanAllowedFailTheRead() throws Exception {
    String path = dir.resolve("flaky").toUri().toString();
    writeHours(path, 1);
    FlakyTable table = new FlakyTable(path);
    TestingSplitEnumeratorContext<DeltaSplit> context = new TestingSplitEnumeratorContext<>(1);
    context.registerReader(0, "localhost");
    try (DeltaSplitEnumerator enumerator =
        new DeltaSplitEnumerator(context, config(table, path, false), initial())) {
      enumerator.start();
      enumerator.handleSplitRequest(0, "localhost");

      table.failNext(2);
      poll(context);
      poll(context);
      assertThat(table.failures()).as("failed polls").isEqualTo(2);
      poll(context);
      assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
          .as("the third poll planned the snapshot")
          .hasSize(1);

      writeHours(path, 2);
      table.failNext(2);
      poll(context);
      poll(context);
      poll(context);
      enumerator.handleSplitRequest(0, "localhost");
      assertThat(table.failures()).isEqualTo(4);
      assertThat(context.getSplitAssignments().get(0).getAssignedSplits())
          .as("two more failures in a row, then the new version")
          .hasSize(2);

      table.failNext(3);
      poll(context);
      poll(context);
      assertThat(context.getExecutorService().getActivePeriodicScheduledTask())
          .as("the poll goes on after two failures")
          .hasSize(1);
      poll(context);
      Future<?> polls = context.getExecutorService().getAllPeriodicScheduledTask().get(0);
      assertThat(polls).as("the third failure in a row ends the polls").isDone();
      assertThatThrownBy(polls::get)
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(FlinkRuntimeException.class)
          .hasMessageContaining("3 polls in a row failed; 'scan.max-planning-failures' allows 2")
          .rootCause()
          .hasMessageContaining("injected");
      assertThat(table.failures()).isEqualTo(7);
    }
  }

  /** Runs the enumerator's poll and applies its plan. */
  private static void poll(TestingSplitEnumeratorContext<DeltaSplit> context) throws Exception {
    context.getExecutorService().triggerPeriodicScheduledTasks();
    context.triggerAllActions();
  }

  private static DeltaEnumeratorState initial() {
    return DeltaEnumeratorState.initial();
  }

  private static DeltaSourceConfig config(TableLocator table, String path, boolean watermarks) {
    Snapshot snapshot =
        new PathTableHistory(path).latest(DefaultEngine.create(new Configuration()));
    return new DeltaSourceConfig(
        table,
        Map.of(),
        ReadColumns.of(path, snapshot, List.of()),
        false,
        StartupMode.SNAPSHOT_THEN_INCREMENTAL,
        -1,
        -1,
        Duration.ofMillis(100),
        1000,
        2,
        ChangeCommits.FAIL,
        null,
        -1,
        watermarks ? WatermarkColumn.of(path, snapshot.getSchema(), List.of(), "at") : null);
  }

  /** One version per hour given: a file of ten rows in that hour after BASE. */
  private static void writeHours(String path, long... hours) throws Exception {
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      for (long hour : hours) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 9; i >= 0; i--) {
          rows.add(
              GenericRowData.of(
                  hour * 100 + i, TimestampData.fromEpochMillis(BASE + hour * HOUR + i * 1000)));
        }
        table.commit(
            "app",
            table.snapshot().getVersion() + 1,
            TestTables.writeFiles(path, TYPE, List.of(), rows));
      }
    }
  }

  /** A path table whose history fails, counted, as many times as it is told to. */
  private static final class FlakyTable implements TableLocator {
    private final PathTableLocator table;
    private final AtomicInteger toFail = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();

    FlakyTable(String path) {
      this.table = new PathTableLocator(path);
    }

    void failNext(int polls) {
      toFail.set(polls);
    }

    int failures() {
      return failed.get();
    }

    @Override
    public String name() {
      return table.name();
    }

    @Override
    public String path() {
      return table.path();
    }

    @Override
    public SnapshotSource snapshots(Configuration conf) {
      return table.snapshots(conf);
    }

    @Override
    public TableHistory history(Configuration conf) {
      TableHistory history = table.history(conf);
      return new TableHistory() {
        @Override
        public Snapshot latest(Engine engine) {
          if (toFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            failed.incrementAndGet();
            throw new UncheckedIOException(new IOException("injected: log unreadable"));
          }
          return history.latest(engine);
        }

        @Override
        public Snapshot atVersion(Engine engine, long version) {
          return history.atVersion(engine, version);
        }

        @Override
        public Snapshot atTimestamp(Engine engine, long timestampMillis) {
          return history.atTimestamp(engine, timestampMillis);
        }

        @Override
        public CommitRange commits(Engine engine, long start, long end) {
          return history.commits(engine, start, end);
        }
      };
    }
  }
}
