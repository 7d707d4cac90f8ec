package io.github.flinkdelta.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source reader driven by hand, as Flink's source operator drives it: it asks for splits, reads
 * each split's rows, and its state restores every row once, also from the middle of a file.
 */
class DeltaSourceReaderTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});
  private static final int ROWS_PER_FILE = 1_000;

  @TempDir Path dir;

  @Test
  void aReaderRestoredFromTheMiddleOfAFileEmitsEveryRowOnce() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    List<Long> expected = writeFiles(path, 2);
    DeltaSource source = DeltaSource.builder().tablePath(path).bounded().build();
    List<DeltaSplit> splits = plannedSplits(source);
    assertThat(splits).hasSize(2);

    List<Long> read = new ArrayList<>();
    List<DeltaSplit> state;
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      reader.addSplits(splits);
      TestingReaderOutput<RowData> output = new TestingReaderOutput<>();
      // One poll emits part of the first file: the checkpoint falls inside it.
      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
      output.getEmittedRecords().forEach(row -> read.add(row.getLong(0)));
      state = reader.snapshotState(1);
    }
    assertThat(read).isNotEmpty().hasSizeLessThan(ROWS_PER_FILE);
    assertThat(state).hasSize(2);
    assertThat(state.get(0).position()).isEqualTo(read.size());

    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      reader.addSplits(state);
      reader.notifyNoMoreSplits();
      TestingReaderOutput<RowData> output = new TestingReaderOutput<>();
      while (reader.pollNext(output) != InputStatus.END_OF_INPUT) {
        // reads on until the splits are done
      }
      output.getEmittedRecords().forEach(row -> read.add(row.getLong(0)));
    }

    assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aReaderWithoutSplitsAsksForOneAndWaitsUntilItComes() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    writeFiles(path, 1);
    DeltaSource source = DeltaSource.builder().tablePath(path).bounded().build();
    TestingReaderContext context = new TestingReaderContext();
    try (SourceReader<RowData, DeltaSplit> reader = source.createReader(context)) {
      reader.start();
      TestingReaderOutput<RowData> output = new TestingReaderOutput<>();

      assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
      assertThat(context.getNumSplitRequests()).isEqualTo(1);
      assertThat(reader.isAvailable()).isNotDone();

      reader.addSplits(plannedSplits(source));

      assertThat(reader.isAvailable()).isDone();
      assertThat(output.getEmittedRecords()).isEmpty();
    }
  }

  /** Commits {@code files} files of {@link #ROWS_PER_FILE} distinct ids, one version each. */
  private static List<Long> writeFiles(String path, int files) throws Exception {
    List<Long> ids = new ArrayList<>();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), java.util.Map.of())) {
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
