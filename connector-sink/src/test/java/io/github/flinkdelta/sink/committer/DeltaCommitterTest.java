/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.CommitFaults;
import io.github.flinkdelta.core.testing.CommitFaults.Fault;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.FaultyPathTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.ManualClock;
import io.github.flinkdelta.sink.RecordedCommitRequest;
import io.github.flinkdelta.sink.RecordedMetrics;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer's decisions, without a cluster: on a real path table, with Flink's commit requests
 * stood in for by {@link RecordedCommitRequest} and faults injected into Kernel's commit.
 */
class DeltaCommitterTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});
  private static final String APP = "app-1";

  @TempDir Path dir;

  private String path;
  private final CommitFaults faults = new CommitFaults();
  private DeltaSinkConfig config;

  @BeforeEach
  void createTable() {
    path = dir.resolve("t").toUri().toString();
    config =
        SinkConfigs.of(new FaultyPathTable(path, faults), TYPE, List.of(), new Configuration());
  }

  @Test
  void committablesAreCommittedInCheckpointOrder() throws Exception {
    RecordedCommitRequest<DeltaCommittable> third = request(3, 30, 31);
    RecordedCommitRequest<DeltaCommittable> second = request(2, 20);
    try (DeltaCommitter committer = committer(OptionalLong.empty())) {
      committer.commit(List.of(third, second));
    }

    assertThat(third.signals()).isEmpty();
    assertThat(second.signals()).isEmpty();
    assertThat(DeltaTableReader.version(path)).isEqualTo(2);
    assertRows(20, 30, 31);
    try (var table = TestTables.open(path)) {
      assertThat(table.transactionVersion(APP)).isEqualTo(3);
    }
  }

  @Test
  void aRestoredCommittableTheTableHoldsIsSignalledAlreadyCommitted() throws Exception {
    try (DeltaCommitter first = committer(OptionalLong.empty())) {
      first.commit(List.of(request(1, 1), request(2, 2)));
    }
    // The job failed after the commit of checkpoint 2 and was restored from checkpoint 2.
    RecordedCommitRequest<DeltaCommittable> replayed = request(2, 2);
    try (DeltaCommitter restored = committer(OptionalLong.of(2))) {
      restored.commit(List.of(replayed));
    }

    assertThat(replayed.signals()).containsExactly("already committed");
    assertThat(DeltaTableReader.version(path)).isEqualTo(2);
    assertRows(1, 2);
  }

  @Test
  void aTableAheadOfACheckpointThisJobJustTookStopsTheJob() throws Exception {
    try (DeltaCommitter other = committer(OptionalLong.empty())) {
      other.commit(List.of(request(5, 5)));
    }
    // A second job under the same app id, restored from its checkpoint 1, takes checkpoint 2.
    RecordedCommitRequest<DeltaCommittable> fresh = request(2, 2);
    try (DeltaCommitter second = committer(OptionalLong.of(1))) {
      assertThatThrownBy(() -> second.commit(List.of(fresh)))
          .isInstanceOf(SuppressRestartsException.class)
          .hasStackTraceContaining("another job is committing under the same app id")
          .hasStackTraceContaining("'sink.app-id'");
    }

    assertThat(fresh.signals()).isEmpty();
    assertRows(5);
  }

  @Test
  void aLostCommitAnswerIsSettledWithoutADuplicate() throws Exception {
    faults.arm(Fault.LAND_THEN_LOSE_THE_RESPONSE);
    RecordedCommitRequest<DeltaCommittable> request = request(1, 1, 2);
    try (DeltaCommitter committer = committer(OptionalLong.empty())) {
      committer.commit(List.of(request));
    }

    assertThat(faults.fired()).isEqualTo(1);
    assertThat(request.signals()).isEmpty();
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
    assertRows(1, 2);
  }

  @Test
  void aRefusedCommitFailsTheTaskAndKeepsItsFilesForTheRetry() throws Exception {
    faults.arm(Fault.FAIL_FOR_GOOD);
    RecordedCommitRequest<DeltaCommittable> request = request(4, 4);
    try (DeltaCommitter committer = committer(OptionalLong.empty())) {
      assertThatThrownBy(() -> committer.commit(List.of(request)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Commit of checkpoint 4 to Delta table " + path)
          .hasMessageContaining("appId " + APP)
          .hasMessageContaining("retried after the job restarts");
    }
    // Neither committed nor given up: Flink keeps the committable and retries after the restore.
    assertThat(faults.fired()).isEqualTo(1);
    assertThat(request.signals()).isEmpty();
    assertThat(DeltaTableReader.version(path)).isZero();

    RecordedCommitRequest<DeltaCommittable> retried = request(4, 4);
    try (DeltaCommitter restored = committer(OptionalLong.of(4))) {
      restored.commit(List.of(retried));
    }
    assertThat(retried.signals()).isEmpty();
    assertRows(4);
  }

  @Test
  void aCheckpointWithoutRowsCountsAsCaughtUpWithoutANewVersion() throws Exception {
    ManualClock clock = new ManualClock();
    RecordedMetrics metrics = new RecordedMetrics();
    try (DeltaCommitter committer = committer(metrics, clock)) {
      committer.commit(List.of(request(1, 1)));
      clock.advanceSeconds(30);
      assertThat(metrics.gauge("elapsedSecondsSinceLastSuccessfulCommit")).isEqualTo(30);

      RecordedCommitRequest<DeltaCommittable> idle = emptyRequest(2);
      committer.commit(List.of(idle));
      assertThat(idle.signals()).isEmpty();
      assertThat(metrics.gauge("elapsedSecondsSinceLastSuccessfulCommit")).isZero();
      assertThat(metrics.gauge("lastCommittedVersion")).isEqualTo(1);

      // A stalled sink: checkpoints complete, their commits fail.
      faults.arm(Fault.FAIL_FOR_GOOD);
      clock.advanceSeconds(45);
      assertThatThrownBy(() -> committer.commit(List.of(request(3, 3))))
          .isInstanceOf(IllegalStateException.class);
      assertThat(metrics.gauge("elapsedSecondsSinceLastSuccessfulCommit")).isEqualTo(45);
    }
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
    assertRows(1);
  }

  @Test
  void aCommittableHandedOnLongerAgoThanHalfTheRetentionWhoseFilesAreGoneStopsTheJob()
      throws Exception {
    committerOnce(request(1, 1));
    try (var table = TestTables.open(path)) {
      table
          .metadata()
          .updateProperties(Map.of("delta.deletedFileRetentionDuration", "interval 2 hours"));
    }
    // Checkpoints were declined for an hour and a half: a vacuum may have taken the files of the
    // one carried over, which no version references.
    RecordedCommitRequest<DeltaCommittable> carried = request(2, 2);
    DeltaCommittable old = carried.getCommittable();
    DeltaCommittable handedOnLongAgo =
        new DeltaCommittable(
            old.appId(),
            old.checkpointId(),
            old.files(),
            old.deletes(),
            System.currentTimeMillis() - Duration.ofMinutes(90).toMillis());
    String missing = old.files().toList().get(0).path();
    Files.delete(Path.of(java.net.URI.create(path)).resolve(missing));

    try (DeltaCommitter committer = committer(OptionalLong.empty())) {
      assertThatThrownBy(
              () -> committer.commit(List.of(new RecordedCommitRequest<>(handedOnLongAgo))))
          .isInstanceOf(SuppressRestartsException.class)
          .rootCause()
          .hasMessageContaining(missing);
    }
    assertThat(DeltaTableReader.version(path)).as("nothing committed after it").isEqualTo(2);
    assertRows(1);
  }

  private void committerOnce(RecordedCommitRequest<DeltaCommittable> request) throws Exception {
    try (DeltaCommitter committer = committer(OptionalLong.empty())) {
      committer.commit(List.of(request));
    }
  }

  private DeltaCommitter committer(OptionalLong restoredCheckpoint) {
    return new DeltaCommitter(
        config,
        restoredCheckpoint,
        new DeltaCommitterMetrics(
            new UnregisteredMetricsGroup(), config.tableName(), Clock.systemUTC()),
        true);
  }

  private DeltaCommitter committer(RecordedMetrics metrics, Clock clock) {
    return new DeltaCommitter(
        config,
        OptionalLong.empty(),
        new DeltaCommitterMetrics(metrics, config.tableName(), clock),
        true);
  }

  private static RecordedCommitRequest<DeltaCommittable> emptyRequest(long checkpoint) {
    return new RecordedCommitRequest<>(new DeltaCommittable(APP, checkpoint, DataFiles.empty()));
  }

  private RecordedCommitRequest<DeltaCommittable> request(long checkpoint, long... ids)
      throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(GenericRowData.of(id));
    }
    DataFiles files = DataFiles.of(TestTables.writeFiles(path, TYPE, List.of(), rows));
    return new RecordedCommitRequest<>(new DeltaCommittable(APP, checkpoint, files));
  }

  private void assertRows(long... ids) {
    List<List<Object>> expected = new ArrayList<>();
    for (long id : ids) {
      expected.add(CanonicalRows.of(GenericRowData.of(id), TYPE));
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }
}
