/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.connector.testutils.source.reader.TestingReaderOutput;
import org.apache.flink.connector.testutils.source.reader.TestingSplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source reader driven by hand, as Flink's source operator drives it: it asks for splits ahead,
 * reads each split's rows on its fetcher thread, keeps taking checkpoints while storage does not
 * answer, and its state restores every row once, also from the middle of a file.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeltaSourceReaderTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});
  private static final int ROWS_PER_FILE = 3_000;

  @TempDir Path dir;

  @AfterEach
  void openTheGate() {
    GatedFileSystem.release();
  }

  @Test
  void aReaderRestoredFromTheMiddleOfAFileEmitsEveryRowOnce() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    List<Long> expected = writeFiles(path, 2);
    DeltaSource source = DeltaSource.builder().tablePath(path).bounded().build();
    List<DeltaSplit> splits = plannedSplits(source);
    assertThat(splits).hasSize(2);

    List<DeltaSplit> state;
    TestingReaderOutput<RowData> before = new TestingReaderOutput<>();
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      reader.addSplits(splits);
      // Part of the first file: the checkpoint falls inside it, with rows read into memory and
      // not yet emitted.
      pollUntil(reader, before, ROWS_PER_FILE / 2);
      state = reader.snapshotState(1);
    }
    List<Long> read = ids(before);
    assertThat(read).hasSize(ROWS_PER_FILE / 2);
    assertThat(state)
        .extracting(DeltaSplit::splitId, DeltaSplit::position)
        .containsExactlyInAnyOrder(
            tuple(splits.get(0).splitId(), (long) read.size()), tuple(splits.get(1).splitId(), 0L));

    TestingReaderOutput<RowData> after = new TestingReaderOutput<>();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.addSplits(state);
      reader.start();
      reader.notifyNoMoreSplits();
      pollToTheEnd(reader, after);
    }
    read.addAll(ids(after));

    assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aReaderAsksForTheNextSplitWhileItReadsOne() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    writeFiles(path, 3);
    DeltaSource source = DeltaSource.builder().tablePath(path).bounded().build();
    List<DeltaSplit> splits = plannedSplits(source);
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      assertThat(context.getNumSplitRequests()).as("without splits").isEqualTo(1);
      TestingReaderOutput<RowData> output = new TestingReaderOutput<>();
      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
      assertThat(context.getNumSplitRequests()).as("a request at a time").isEqualTo(1);

      reader.addSplits(splits.subList(0, 1));
      assertThat(context.getNumSplitRequests()).as("one split held").isEqualTo(2);
      reader.addSplits(splits.subList(1, 2));
      assertThat(context.getNumSplitRequests()).as("two held").isEqualTo(2);

      pollUntil(reader, output, ROWS_PER_FILE + 1);
      assertThat(context.getNumSplitRequests()).as("the first file done").isEqualTo(3);
    }
  }

  @Test
  void aRestoredReaderAsksForSplitsOnlyOnceStartedWhenTheEnumeratorKnowsIt() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    writeFiles(path, 1);
    DeltaSource source = DeltaSource.builder().tablePath(path).bounded().build();
    List<DeltaSplit> restored = plannedSplits(source);
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      // Flink's source operator hands the restored splits over first, then registers the reader
      // with the enumerator, then starts it: a request before that would be dropped.
      reader.addSplits(restored);
      assertThat(context.getNumSplitRequests()).as("before start").isZero();

      reader.start();
      assertThat(context.getNumSplitRequests()).as("once started").isEqualTo(1);
    }
  }

  @Test
  void aCheckpointIsTakenWhileStorageDoesNotAnswer() throws Exception {
    String local = dir.resolve("t").toUri().toString();
    List<Long> expected = writeFiles(local, 1);
    DeltaSource source =
        DeltaSource.builder()
            .tablePath(GatedFileSystem.SCHEME + "://" + dir.resolve("t").toUri().getPath())
            .hadoopOption("fs." + GatedFileSystem.SCHEME + ".impl", GatedFileSystem.class.getName())
            .hadoopOption("fs." + GatedFileSystem.SCHEME + ".impl.disable.cache", "true")
            .bounded()
            .build();
    List<DeltaSplit> splits = plannedSplits(source);
    assertThat(splits).hasSize(1);

    GatedFileSystem.hold();
    TestingReaderOutput<RowData> output = new TestingReaderOutput<>();
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      reader.addSplits(splits);
      reader.notifyNoMoreSplits();
      while (GatedFileSystem.waiting() == 0) {
        Thread.sleep(5);
      }

      // The fetcher waits for the file; the task thread answers at once.
      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
      assertThat(reader.snapshotState(1)).containsExactlyElementsOf(splits);
      assertThat(GatedFileSystem.waiting()).as("still waiting for storage").isEqualTo(1);

      GatedFileSystem.release();
      pollToTheEnd(reader, output);
    }
    assertThat(ids(output)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** Polls as the source operator does, waiting while nothing is available, until n rows. */
  private static void pollUntil(
      SourceReader<RowData, DeltaSplit> reader, TestingReaderOutput<RowData> output, int rows)
      throws Exception {
    while (output.getEmittedRecords().size() < rows) {
      if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
        reader.isAvailable().get();
      }
    }
  }

  private static void pollToTheEnd(
      SourceReader<RowData, DeltaSplit> reader, TestingReaderOutput<RowData> output)
      throws Exception {
    InputStatus status;
    while ((status = reader.pollNext(output)) != InputStatus.END_OF_INPUT) {
      if (status == InputStatus.NOTHING_AVAILABLE) {
        reader.isAvailable().get();
      }
    }
  }

  private static List<Long> ids(TestingReaderOutput<RowData> output) {
    List<Long> ids = new ArrayList<>();
    output.getEmittedRecords().forEach(row -> ids.add(row.getLong(0)));
    return ids;
  }

  /** Commits {@code files} files of {@link #ROWS_PER_FILE} distinct ids, one version each. */
  private static List<Long> writeFiles(String path, int files) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      for (int file = 0; file < files; file++) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < ROWS_PER_FILE; i++) {
          long id = (long) file * ROWS_PER_FILE + i;
          rows.add(GenericRowData.of(id));
          ids.add(id);
        }
        TestTables.committed(
            table.commit("writer", file + 1, TestTables.writeFiles(path, TYPE, List.of(), rows)));
      }
    }
    return ids;
  }

  /** The splits the source's enumerator hands a reader that asks until it has them all. */
  private static List<DeltaSplit> plannedSplits(DeltaSource source) throws Exception {
    TestingSplitEnumeratorContext<DeltaSplit> context = new TestingSplitEnumeratorContext<>(1);
    context.registerReader(0, "localhost");
    try (var enumerator = source.createEnumerator(context)) {
      enumerator.start();
      context.getExecutorService().triggerPeriodicScheduledTasks();
      context.triggerAllActions();
      for (int i = 0; i < 10; i++) {
        enumerator.handleSplitRequest(0, "localhost");
      }
    }
    var assignment = context.getSplitAssignments().get(0);
    return assignment == null ? List.of() : new ArrayList<>(assignment.getAssignedSplits());
  }
}
