/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.LogCapture;
import io.github.flinkdelta.it.support.PhaseGate;
import io.github.flinkdelta.it.support.Savepoints;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions.KeyIndex;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upsert jobs stopped with a savepoint and resubmitted from it under a new job id, at another
 * parallelism: the key index lives in keyed state (on the heap per key group, or in the state
 * backend) and moves with its keys, so after each rescale every key's next change still finds (and
 * deletes) the row the key had; the app id lives in state, so every job commits under the first
 * job's. An older savepoint restored under a new app id stops before it could leave a key twice.
 * The writers compact their own files all along.
 */
class UpsertSavepointITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final long CHANGES = 15_000;

  /** Changes each of the first two phases checkpoints before it is stopped. */
  private static final long PHASE_ROWS = 3_000;

  private final Changelog changelog = new Changelog(400);

  @TempDir Path dir;

  @Test
  void rescalingUpThenDownThroughSavepointsUnderNewJobIdsKeepsOneRowPerKey() throws Exception {
    rescaleThroughSavepoints(List.of(KeyIndex.AUTO, KeyIndex.AUTO, KeyIndex.AUTO));
  }

  /**
   * The index kind changes at each restore, with the parallelism: the entries restored into the
   * other kind move over, from the state backend to the heap and back.
   */
  @Test
  void switchingTheKeyIndexBetweenStateBackendAndHeapAtARescaleKeepsOneRowPerKey()
      throws Exception {
    rescaleThroughSavepoints(
        List.of(KeyIndex.STATE_BACKEND, KeyIndex.HEAP, KeyIndex.STATE_BACKEND));
  }

  private void rescaleThroughSavepoints(List<KeyIndex> indexes) throws Exception {
    String table = dir.resolve("rescaled").toUri().toString();
    Path savepoints = dir.resolve("savepoints");

    JobClient first;
    JobClient second;
    JobClient third;
    String savepoint1;
    String savepoint2;
    long atSavepoint1;
    long atSavepoint2;
    PhaseGate gate1 = PhaseGate.in(shared, PHASE_ROWS);
    PhaseGate gate2 = PhaseGate.in(shared, PHASE_ROWS);
    PhaseGate gate3 = PhaseGate.in(shared, PHASE_ROWS);
    gate3.release();
    try (LogCapture logs =
        LogCapture.of("io.github.flinkdelta.sink.upsert.UpsertWriterOperator", Level.INFO)) {
      // Phase 1 at parallelism 2, stopped with a savepoint once it checkpointed enough changes.
      first = start(table, null, 2, gate1, null, indexes.get(0));
      // The writers compact while the source is held, as checkpoints go on: phase 1 ends once
      // one of their rewrites is committed, however slow the machine.
      Await.until(
          first,
          "phase 1 checkpointed " + PHASE_ROWS + " changes and committed a writer's rewrite",
          () -> gate1.closed() && !rewriteVersions(table).isEmpty());
      savepoint1 = Savepoints.stop(first, savepoints);
      atSavepoint1 = gate1.checkpointedRows();
      // The savepoint's own checkpoint is committed when it completes: the table is its changes.
      UpsertAssert.assertExact(table, changelog.expected(atSavepoint1));

      // Phase 2 at parallelism 4 from that savepoint, and phase 3 at parallelism 1 from phase 2's.
      second = start(table, savepoint1, 4, gate2, null, indexes.get(1));
      Await.until(second, "phase 2 checkpointed " + PHASE_ROWS + " changes", gate2::closed);
      savepoint2 = Savepoints.stop(second, savepoints);
      atSavepoint2 = gate2.checkpointedRows();
      UpsertAssert.assertExact(table, changelog.expected(atSavepoint2));

      third = start(table, savepoint2, 1, gate3, null, indexes.get(2));
      third.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);
      // Only phase 1's two writers, starting without state, read the table's keys; the restored
      // writers of phases 2 and 3 took their index from the savepoints.
      assertThat(logs.text().split("read the keys of", -1)).hasSize(3);
      // A changed kind moves the entries at each restore: in phase 2's four writers, then in
      // phase 3's one.
      int moves = indexes.get(0) == indexes.get(1) ? 0 : 4 + 1;
      assertThat(logs.text().split("moved its key index of", -1)).hasSize(moves + 1);
    }

    UpsertAssert.assertExact(table, changelog.expected(CHANGES));
    assertThat(atSavepoint1).isGreaterThanOrEqualTo(PHASE_ROWS);
    assertThat(atSavepoint2).isGreaterThanOrEqualTo(atSavepoint1 + PHASE_ROWS).isLessThan(CHANGES);
    assertThat(gate2.restored()).containsOnly(Savepoints.checkpointIdOf(savepoint1));
    assertThat(gate3.restored()).containsOnly(Savepoints.checkpointIdOf(savepoint2));
    assertThat(List.of(first.getJobID(), second.getJobID(), third.getJobID()))
        .as("job ids")
        .doesNotHaveDuplicates();
    // One app id throughout (and its writers' compactions' own): the later jobs took it from the
    // savepoints.
    String appId = DeltaLogFiles.appIds(table).first();
    assertThat(DeltaLogFiles.appIds(table)).containsExactly(appId, appId + "/compactions");
    UpsertAssert.assertNoVersionRepeatsAKey(table);
  }

  /**
   * Restoring an older savepoint under a new app id, which an appending sink takes as the way to
   * write on from older state, replays changes whose deletes the table holds already: the key index
   * of the older savepoint points at rows the later job deleted, and the keys have newer rows
   * elsewhere. The first commit that would delete such a row must stop the job and commit nothing,
   * or keys would be doubled.
   */
  @Test
  void anOlderSavepointRestoredUnderANewAppIdStopsBeforeLeavingAKeyTwice() throws Exception {
    String table = dir.resolve("older").toUri().toString();
    Path savepoints = dir.resolve("savepoints-older");
    PhaseGate gate1 = PhaseGate.in(shared, PHASE_ROWS);
    JobClient first = start(table, null, 2, gate1, null);
    Await.until(first, "phase 1 checkpointed " + PHASE_ROWS + " changes", gate1::closed);
    String older = Savepoints.stop(first, savepoints);

    PhaseGate gate2 = PhaseGate.in(shared, PHASE_ROWS);
    JobClient second = start(table, older, 2, gate2, null);
    Await.until(second, "phase 2 checkpointed " + PHASE_ROWS + " changes", gate2::closed);
    Savepoints.stop(second, savepoints);
    long atNewer = gate2.checkpointedRows();
    long versionAtNewer = DeltaTableReader.version(table);
    UpsertAssert.assertExact(table, changelog.expected(atNewer));

    PhaseGate gate3 = PhaseGate.in(shared, PHASE_ROWS);
    gate3.release();
    JobClient third = start(table, older, 2, gate3, "written-on-from-older");
    Throwable failure =
        catchThrowable(
            () ->
                third.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES));

    assertThat(failure).as("the job from the older savepoint stops").isNotNull();
    assertThat(ExceptionUtils.findThrowable(failure, SuppressRestartsException.class)).isPresent();
    assertThat(ExceptionUtils.findThrowableWithMessage(failure, "cannot write on from older state"))
        .as("the job stops when it starts, saying why")
        .isPresent();
    assertThat(DeltaTableReader.version(table)).isEqualTo(versionAtNewer);
    UpsertAssert.assertExact(table, changelog.expected(atNewer));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
  }

  /** The versions of {@code table} that commit a writer's rewrite (removes without data change). */
  private static List<Long> rewriteVersions(String table) {
    return DeltaLogFiles.versions(table).stream()
        .filter(
            version ->
                DeltaLogFiles.actions(table, version, "remove").stream()
                    .anyMatch(remove -> !remove.get("dataChange").asBoolean()))
        .toList();
  }

  private JobClient start(
      String table, String savepoint, int parallelism, PhaseGate gate, String appId)
      throws Exception {
    return start(table, savepoint, parallelism, gate, appId, KeyIndex.AUTO);
  }

  private JobClient start(
      String table, String savepoint, int parallelism, PhaseGate gate, String appId, KeyIndex index)
      throws Exception {
    StreamExecutionEnvironment env =
        FLINK
            .job()
            .parallelism(parallelism)
            .checkpointEveryMillis(100)
            .restarts(3)
            .restoredFrom(savepoint)
            .env();
    DeltaSinkBuilder sink =
        DeltaSink.builder()
            .tablePath(table)
            .rowType(Changelog.TYPE)
            .primaryKey("id")
            .partitionColumns("bucket")
            .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
            .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
            .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
            .option(DeltaSinkOptions.UPSERT_KEY_INDEX, index)
            .uidPrefix("delta-sink");
    if (appId != null) {
      sink.option(DeltaSinkOptions.APP_ID, appId);
    }
    changelog
        .source(env, 0, CHANGES, gate.rate(5_000))
        .map(gate.probe())
        .setParallelism(1)
        .uid("phase-probe")
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(sink.build())
        .uid("delta-sink");
    return env.executeAsync("upserts at parallelism " + parallelism);
  }
}
