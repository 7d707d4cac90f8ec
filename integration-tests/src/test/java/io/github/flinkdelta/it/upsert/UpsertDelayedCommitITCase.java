/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FaultyCommitSink;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.HeldCommitSink;
import io.github.flinkdelta.it.support.SourceGate;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Upsert commits that come late or twice: a checkpoint's commit held back while the next checkpoint
 * deletes rows of the held checkpoint's files; a failure between a completed checkpoint and its
 * commit (or right after the commit), so that the restarted job replays the committable from state;
 * and a job restored from a retained checkpoint whose commit never happened. Each time the table
 * read back must equal the replayed changelog, and no version may hold a key twice.
 */
class UpsertDelayedCommitITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  @TempDir Path dir;

  @Test
  void aHeldCommitLandsBeforeTheNextCheckpointThatDeletesRowsOfItsFiles() throws Exception {
    String table = dir.resolve("held").toUri().toString();
    Changelog changelog = new Changelog(50);
    long changes = 6_000;
    HeldCommitSink.Hold hold = HeldCommitSink.Hold.in(shared);
    SourceGate gate = SourceGate.in(shared);

    // The first commit with files is held; the changes after the gate come while it is.
    StreamExecutionEnvironment env = FLINK.job().parallelism(2).checkpointEveryMillis(100).env();
    changelog
        .source(env, 0, changes, gate, 2_000)
        .sinkTo(new HeldCommitSink(sink(table).build(), hold, 1));
    JobClient job = env.executeAsync("upserts, a commit held back");
    Await.until(job, "a commit held back", hold::holding);
    gate.open();
    Await.until(job, "the next checkpoint handed over", hold::handedOverAfterHeld);
    long held = hold.heldCheckpoint();
    // Flink completed the held checkpoint, the next one is on its way, and the table has neither.
    assertThat(txnVersions(table)).allMatch(txn -> txn < held);
    hold.release();
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    UpsertAssert.assertExact(table, changelog.expected(changes));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    long heldVersion = versionOfTxn(table, held);
    long nextVersion = versionOfTxn(table, held + 1);
    assertThat(nextVersion).as("version of checkpoint %d", held + 1).isGreaterThan(heldVersion);
    Set<String> heldFiles = paths(DeltaLogFiles.actions(table, heldVersion, "add"));
    assertThat(paths(DeltaLogFiles.actions(table, nextVersion, "remove")))
        .as("files of checkpoint %d whose rows checkpoint %d deleted", held, held + 1)
        .containsAnyElementsOf(heldFiles);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = FaultyCommitSink.When.class,
      names = {"BEFORE_DELETING_COMMITTED_ROWS", "AFTER_DELETING_COMMITTED_ROWS"})
  void aCommitReplayedAfterARestartDeletesTheRowsOfEarlierCheckpointsOnce(
      FaultyCommitSink.When when) throws Exception {
    String table = dir.resolve("replayed-" + when).toUri().toString();
    Changelog changelog = new Changelog(200);
    long changes = 8_000;
    FaultCounter faults = FaultCounter.in(shared);
    SourceGate gate = SourceGate.in(shared);

    // The gate holds the changes after the first 3,000 until a commit landed: a later checkpoint
    // then deletes rows of committed files, and its commit fails before or after it lands.
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(100).restarts(3).env();
    changelog
        .source(env, 0, changes, gate, 3_000)
        .sinkTo(new FaultyCommitSink(sink(table).build(), faults, when, 1, 1));
    JobClient job = env.executeAsync("upserts, commit fails " + when);
    Await.until(job, "a first commit", () -> !txnVersions(table).isEmpty());
    gate.open();
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    assertThat(faults.count()).isEqualTo(1);
    UpsertAssert.assertExact(table, changelog.expected(changes));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    assertThat(txnVersions(table)).doesNotHaveDuplicates();
  }

  @Test
  void aJobRestoredFromARetainedCheckpointCommitsItsPendingDeletesFirst() throws Exception {
    String table = dir.resolve("retained").toUri().toString();
    Path checkpoints = dir.resolve("checkpoints");
    Changelog changelog = new Changelog(200);
    long changes = 8_000;
    FaultCounter faults = FaultCounter.in(shared);
    SourceGate gate = SourceGate.in(shared);

    // The first commit that deletes rows of committed files fails, without restarts: its
    // checkpoint is retained with the committable and the key index pointing past it.
    StreamExecutionEnvironment env =
        FLINK
            .job()
            .parallelism(2)
            .checkpointEveryMillis(100)
            .retainingCheckpointsIn(checkpoints.toUri().toString())
            .env();
    changelog
        .source(env, 0, changes, gate, 3_000)
        .sinkTo(
            new FaultyCommitSink(
                sink(table).uidPrefix("delta-sink").build(),
                faults,
                FaultyCommitSink.When.BEFORE_DELETING_COMMITTED_ROWS,
                1,
                1))
        .uid("delta-sink");
    JobClient job = env.executeAsync("upserts, commit fails");
    Await.until(job, "a first commit", () -> !txnVersions(table).isEmpty());
    gate.open();
    assertThatThrownBy(
            () -> job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES))
        .hasStackTraceContaining("Injected failure before the Delta commit");
    assertThat(faults.count()).isEqualTo(1);
    Path retained = latestCheckpoint(checkpoints);
    long pending = Long.parseLong(retained.getFileName().toString().substring(4));
    assertThat(txnVersions(table)).allMatch(txn -> txn < pending);
    long lastVersionBefore = lastVersion(table);
    long lastTxnBefore = txnVersions(table).stream().mapToLong(Long::longValue).max().orElseThrow();

    // Restored at another parallelism, the job commits the pending checkpoint, then goes on.
    StreamExecutionEnvironment env2 =
        FLINK
            .job()
            .parallelism(3)
            .checkpointEveryMillis(100)
            .restoredFrom(retained.toUri().toString())
            .env();
    changelog
        .source(env2, 0, changes, 5_000)
        .sinkTo(sink(table).uidPrefix("delta-sink").build())
        .uid("delta-sink");
    env2.execute("upserts, restored from a retained checkpoint");

    UpsertAssert.assertExact(table, changelog.expected(changes));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    // The failed checkpoint (the retained one, or the one before it if the next completed before
    // the failure stopped the job) is the first version after the first job's, and it deletes rows
    // of the files the first job committed.
    assertThat(txnOf(table, lastVersionBefore + 1).orElseThrow())
        .isGreaterThan(lastTxnBefore)
        .isLessThanOrEqualTo(pending);
    assertThat(DeltaLogFiles.actions(table, lastVersionBefore + 1, "remove")).isNotEmpty();
    assertThat(DeltaLogFiles.appIds(table)).hasSize(1);
  }

  private static DeltaSinkBuilder sink(String table) {
    return DeltaSink.builder().tablePath(table).rowType(Changelog.TYPE).primaryKey("id");
  }

  /** The transaction versions the table's commits carry, in version order. */
  private static List<Long> txnVersions(String table) {
    return DeltaLogFiles.versions(table).stream()
        .flatMap(v -> DeltaLogFiles.actions(table, v, "txn").stream())
        .map(txn -> txn.get("version").asLong())
        .toList();
  }

  private static OptionalLong txnOf(String table, long version) {
    return DeltaLogFiles.actions(table, version, "txn").stream()
        .mapToLong(txn -> txn.get("version").asLong())
        .findFirst();
  }

  private static long versionOfTxn(String table, long txn) {
    return DeltaLogFiles.versions(table).stream()
        .filter(v -> txnOf(table, v).orElse(-1) == txn)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no version of checkpoint " + txn + " in " + table));
  }

  private static long lastVersion(String table) {
    List<Long> versions = DeltaLogFiles.versions(table);
    return versions.get(versions.size() - 1);
  }

  private static Set<String> paths(List<JsonNode> actions) {
    return actions.stream().map(a -> a.get("path").asText()).collect(Collectors.toSet());
  }

  private static Path latestCheckpoint(Path directory) throws Exception {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(p -> p.getFileName().toString().equals("_metadata"))
          .map(Path::getParent)
          .max(
              Comparator.comparingLong(
                  p -> Long.parseLong(p.getFileName().toString().substring(4))))
          .orElseThrow();
    }
  }
}
