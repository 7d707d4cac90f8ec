/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.commit.CommitOutcome.AlreadyCommitted;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Conflicted;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.CommitFaults;
import io.github.flinkdelta.core.testing.CommitFaults.Fault;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.FaultyPathTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commit loop's decisions on a real path table, with faults injected into Kernel's commit: each
 * outcome leaves the table holding the files exactly once or not at all.
 */
class TableCommitterTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  @TempDir Path dir;

  private String path;
  private final CommitFaults faults = new CommitFaults();

  @BeforeEach
  void createTable() {
    path = dir.resolve("t").toUri().toString();
    TestTables.create(path, TYPE, List.of(), Map.of()).close();
  }

  @Test
  void aCommitWhoseAnswerIsLostIsSettledByItsTransactionIdAndLandsOnce() throws Exception {
    List<DataFile> files = files(1, 2, 3);
    faults.arm(Fault.LAND_THEN_LOSE_THE_RESPONSE);
    try (DeltaTable table = open()) {
      CommitOutcome outcome = table.commit("app", 1, files);

      assertThat(faults.fired()).isEqualTo(1);
      assertThat(outcome).isInstanceOf(Committed.class);
      assertThat(((Committed) outcome).tableVersion()).isEqualTo(1);
      assertThat(((Committed) outcome).retries()).isPositive();
      assertThat(table.transactionVersion("app")).isEqualTo(1);
    }
    assertRows(1, 2, 3);
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
  }

  @Test
  void aCommitThatFailedBeforeLandingIsRetriedAndLandsOnce() throws Exception {
    faults.arm(Fault.FAIL_BEFORE_LANDING, Fault.FAIL_BEFORE_LANDING);
    try (DeltaTable table = open()) {
      CommitOutcome outcome = table.commit("app", 1, files(7));

      assertThat(faults.fired()).isEqualTo(2);
      assertThat(outcome).isEqualTo(new Committed(1, 1, 2, 0, 0, 0));
    }
    assertRows(7);
  }

  @Test
  void aRepeatedTransactionWritesNothing() throws Exception {
    try (DeltaTable table = open()) {
      TestTables.committed(table.commit("app", 3, files(1)));

      assertThat(table.commit("app", 3, files(2))).isEqualTo(new AlreadyCommitted(1, 3, 0));
      assertThat(table.commit("app", 2, files(3))).isEqualTo(new AlreadyCommitted(1, 3, 0));
    }
    assertRows(1);
  }

  @Test
  void aRefusedCommitFailsAndLeavesTheTableAsItWas() throws Exception {
    faults.arm(Fault.FAIL_FOR_GOOD);
    try (DeltaTable table = open()) {
      CommitOutcome outcome = table.commit("app", 1, files(1));

      assertThat(faults.fired()).isEqualTo(1);
      assertThat(outcome).isInstanceOf(Failed.class);
      assertThat(((Failed) outcome).cause()).hasStackTraceContaining("refused for good");
      assertThat(table.transactionVersion("app")).isEqualTo(-1);
      // The same commit, tried again (as after a restore), lands once.
      TestTables.committed(table.commit("app", 1, files(1)));
    }
    assertRows(1);
  }

  @Test
  void retryableFailuresBeyondTheRetriesFail() throws Exception {
    faults.arm(Fault.FAIL_BEFORE_LANDING, Fault.FAIL_BEFORE_LANDING, Fault.FAIL_BEFORE_LANDING);
    try (DeltaTable table =
        DeltaTable.open(
            TableRequest.of(new FaultyPathTable(path, faults), HadoopConfigurations.of(Map.of()))
                .withMaxCommitRetries(1))) {
      assertThat(table.commit("app", 1, files(1))).isInstanceOf(Failed.class);
      assertThat(faults.fired()).isEqualTo(2);
    }
    assertThat(DeltaTableReader.version(path)).isZero();
  }

  @Test
  void aSchemaChangedUnderTheCommitIsAConflictAndWritesNothing() throws Exception {
    // Delta changes a schema only under column mapping.
    path = dir.resolve("mapped").toUri().toString();
    TestTables.create(path, TYPE, List.of(), Map.of("delta.columnMapping.mode", "name")).close();
    List<DataFile> files = files(1);
    try (DeltaTable stale = open();
        DeltaTable other = TestTables.open(path)) {
      other
          .metadata()
          .addColumns(
              List.of(
                  DeltaTypes.toDeltaSchema(
                          RowType.of(
                              new LogicalType[] {new VarCharType(VarCharType.MAX_LENGTH)},
                              new String[] {"note"}))
                      .at(0)));

      CommitOutcome outcome = stale.commit("app", 1, files);

      assertThat(outcome).isInstanceOf(Conflicted.class);
      assertThat(((Conflicted) outcome).attempts()).isEqualTo(1);
      assertThat(stale.transactionVersion("app")).isEqualTo(-1);
    }
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
    assertThat(DeltaTableReader.readAll(path)).isEmpty();
  }

  @Test
  void aColumnDroppedUnderFilesOfAKnownLayoutIsAConflictNamingIt() throws Exception {
    path = dir.resolve("dropped").toUri().toString();
    RowType type =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "note"});
    TestTables.create(path, type, List.of(), Map.of("delta.columnMapping.mode", "name")).close();
    List<DataFile> files =
        TestTables.writeFiles(
            path, type, List.of(), List.of(GenericRowData.of(1L, StringData.fromString("a"))));
    try (DeltaTable stale = open();
        DeltaTable other = TestTables.open(path)) {
      stale.checkCommitsAgainst(stale.layoutFor(type, List.of()));
      other
          .metadata()
          .evolveSchema(new StructType(List.of(other.snapshot().getSchema().get("id"))), false);

      CommitOutcome outcome = stale.commit("app", 1, files);

      assertThat(outcome).isInstanceOf(Conflicted.class);
      assertThat(((Conflicted) outcome).cause())
          .hasMessageContaining("column 'note' that the job writes was dropped");
      assertThat(stale.transactionVersion("app")).isEqualTo(-1);
    }
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
    assertThat(DeltaTableReader.readAll(path)).isEmpty();
  }

  @Test
  void aTruncationRemovesEveryFileInOneVersionOnceAndRowsCommittedAfterItStay() throws Exception {
    try (DeltaTable table = open()) {
      TestTables.committed(table.commit("app", 1, files(1, 2)));
      TestTables.committed(table.commit("app", 2, files(3)));
      // The truncation's commit lands, but its answer is lost: the transaction id settles it.
      faults.arm(Fault.LAND_THEN_LOSE_THE_RESPONSE);

      CommitOutcome truncated = table.truncate("app/truncates", 2);

      assertThat(faults.fired()).isEqualTo(1);
      assertThat(truncated).isInstanceOf(Committed.class);
      assertThat(((Committed) truncated).tableVersion()).isEqualTo(3);
      assertRows();
      // Sent again, as after a restore, before and after the next checkpoint's rows.
      assertThat(table.truncate("app/truncates", 2)).isInstanceOf(AlreadyCommitted.class);
      TestTables.committed(table.commit("app", 3, files(4)));
      assertThat(table.truncate("app/truncates", 2)).isInstanceOf(AlreadyCommitted.class);
    }
    assertRows(4);
    assertThat(DeltaTableReader.version(path)).isEqualTo(4);
    List<String> truncation =
        Files.readAllLines(dir.resolve("t/_delta_log/" + "0".repeat(19) + "3.json"));
    assertThat(truncation.stream().filter(line -> line.startsWith("{\"remove\"")))
        .hasSize(2)
        .allMatch(line -> line.contains("\"dataChange\":true"));
    assertThat(truncation).noneMatch(line -> line.startsWith("{\"add\""));
  }

  private DeltaTable open() {
    return DeltaTable.open(
        TableRequest.of(new FaultyPathTable(path, faults), HadoopConfigurations.of(Map.of())));
  }

  private List<DataFile> files(long... ids) throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(GenericRowData.of(id));
    }
    return TestTables.writeFiles(path, TYPE, List.of(), rows);
  }

  private void assertRows(long... ids) {
    List<List<Object>> expected = new ArrayList<>();
    for (long id : ids) {
      expected.add(CanonicalRows.of(GenericRowData.of(id), TYPE));
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }
}
