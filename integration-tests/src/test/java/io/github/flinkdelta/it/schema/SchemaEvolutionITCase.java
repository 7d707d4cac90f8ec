/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.schema;

import static io.github.flinkdelta.it.support.EvolvingRows.V1;
import static io.github.flinkdelta.it.support.EvolvingRows.V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FaultyCommitSink;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SourceGate;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs across a schema change of a path table: a job redeployed with wider rows from a savepoint or
 * from a checkpoint whose files were never committed, and a job failing right after its sink
 * evolved the table. Each ends with every row exactly once, rows of the first shape read with nulls
 * in the new columns and their narrower values widened (see {@link SchemaEvolutionAtBuildITCase}
 * for what the build itself does).
 */
class SchemaEvolutionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  @TempDir Path dir;

  @Test
  void aJobRedeployedFromASavepointWithWiderRowsEvolvesTheTableAndWritesEveryRowOnce()
      throws Exception {
    String table = table("redeployed");
    long count = 600;
    SourceGate gate = SourceGate.in(shared);

    // The first job writes rows of the first shape until its readers wait at the gate, which
    // never opens for it; all it sent is committed before it stops.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    EvolvingRows.v1Rows(EvolvingRows.indexes(env, count, gate, 100))
        .sinkTo(sink(table, V1).uidPrefix("delta-sink").build())
        .uid("delta-sink");
    JobClient first = env.executeAsync("first shape");
    Await.until(first, "both readers wait at the gate", () -> gate.waiting() == 2);
    long sent = gate.emitted();
    Await.until(first, sent + " rows committed", () -> rows(table).size() == sent);
    List<List<Object>> beforeEvolution = rows(table);
    String savepoint =
        first
            .stopWithSavepoint(
                false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get(2, TimeUnit.MINUTES);
    long lastFirstShapeVersion = DeltaTableReader.version(table);

    // The second job's sink evolves the table when it is built, in one version without data.
    DeltaSink wider =
        sink(table, V2).uidPrefix("delta-sink").schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = lastFirstShapeVersion + 1;
    assertThat(DeltaTableReader.version(table)).isEqualTo(schemaVersion);
    assertThat(DeltaLogFiles.actions(table, schemaVersion, "metaData")).hasSize(1);
    assertThat(DeltaLogFiles.actions(table, schemaVersion, "add")).isEmpty();
    EvolvingRows.assertSecondShape(table);

    StreamExecutionEnvironment env2 =
        FLINK.job().checkpointEveryMillis(100).restarts(3).restoredFrom(savepoint).env();
    EvolvingRows.v2Rows(EvolvingRows.indexes(env2, count)).sinkTo(wider).uid("delta-sink");
    env2.execute("second shape");

    // Every row number once: those committed before the change read as the first shape did, with
    // qty widened and nulls in the new columns; all later ones carry the second shape's values.
    List<List<Object>> rows = rows(table);
    Set<Long> ids = new HashSet<>();
    rows.forEach(r -> ids.add((Long) r.get(0)));
    long duplicated = rows.size() - ids.size();
    long lost = count - ids.size();
    assertThat(duplicated).as("rows written twice").isZero();
    assertThat(lost).as("rows lost").isZero();
    Set<Long> firstShape = new HashSet<>();
    beforeEvolution.forEach(r -> firstShape.add((Long) r.get(0)));
    assertThat(firstShape).hasSize((int) sent).isNotEmpty();
    assertThat(beforeEvolution)
        .containsExactlyInAnyOrderElementsOf(
            firstShape.stream().map(EvolvingRows::v1AsWritten).toList());
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      expected.add(firstShape.contains(i) ? EvolvingRows.v1Read(i) : EvolvingRows.v2Read(i));
    }
    assertThat(count - firstShape.size()).as("rows of the second job").isPositive();
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    // One app id throughout: the second job took it from the savepoint.
    assertThat(DeltaLogFiles.appIds(table)).hasSize(1);
    // Only the evolution changed the schema; every later version adds files.
    for (long v = schemaVersion + 1; v <= DeltaTableReader.version(table); v++) {
      assertThat(DeltaLogFiles.actions(table, v, "metaData")).as("version %d", v).isEmpty();
      assertThat(DeltaLogFiles.actions(table, v, "add")).as("version %d", v).isNotEmpty();
    }
  }

  @Test
  void filesOfACheckpointNeverCommittedAreCommittedIntoTheTableTheWiderJobEvolved()
      throws Exception {
    String table = table("resumed");
    long count = 400;
    SourceGate gate = SourceGate.in(shared);
    Path checkpoints = dir.resolve("checkpoints");

    // The first job's first checkpoint that holds files completes, but its commit fails and the
    // job ends there: those files of the first shape are pending in the retained checkpoint.
    StreamExecutionEnvironment env =
        FLINK
            .job()
            .checkpointEveryMillis(100)
            .retainingCheckpointsIn(checkpoints.toUri().toString())
            .env();
    DeltaSink narrow = sink(table, V1).uidPrefix("delta-sink").build();
    EvolvingRows.v1Rows(EvolvingRows.indexes(env, count, gate, 50))
        .sinkTo(
            new FaultyCommitSink(
                narrow, injected, FaultyCommitSink.When.BEFORE_COMMITTING_FILES, 1, 1))
        .uid("delta-sink");
    assertThatThrownBy(() -> env.execute("commit fails"))
        .hasStackTraceContaining("Injected failure before the Delta commit");
    assertThat(injected.count()).isEqualTo(1);
    assertThat(rows(table)).isEmpty();
    Path checkpoint = latestCheckpoint(checkpoints);
    long pendingCheckpoint = Long.parseLong(checkpoint.getFileName().toString().substring(4));

    DeltaSink wider =
        sink(table, V2).uidPrefix("delta-sink").schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);
    StreamExecutionEnvironment env2 =
        FLINK.job().checkpointEveryMillis(100).restoredFrom(checkpoint.toUri().toString()).env();
    EvolvingRows.v2Rows(EvolvingRows.indexes(env2, count)).sinkTo(wider).uid("delta-sink");
    env2.execute("second shape");

    // The pending files are the first version after the schema's, under their own checkpoint.
    assertThat(DeltaLogFiles.actions(table, schemaVersion + 1, "txn"))
        .singleElement()
        .satisfies(txn -> assertThat(txn.get("version").asLong()).isEqualTo(pendingCheckpoint));
    List<List<Object>> rows = rows(table);
    Set<Long> ids = new HashSet<>();
    rows.forEach(r -> ids.add((Long) r.get(0)));
    assertThat(rows.size() - ids.size()).as("rows written twice").isZero();
    assertThat(count - ids.size()).as("rows lost").isZero();
    // Rows of the pending files read as the first shape, widened; the rest as the second.
    Set<Long> pendingIds = new HashSet<>();
    rows.stream().filter(r -> r.get(4) == null).forEach(r -> pendingIds.add((Long) r.get(0)));
    assertThat(pendingIds).isNotEmpty();
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      expected.add(pendingIds.contains(i) ? EvolvingRows.v1Read(i) : EvolvingRows.v2Read(i));
    }
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The newest completed checkpoint under {@code directory}: {@code <job>/chk-<n>}. */
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

  @Test
  void aJobThatFailsBeforeItsFirstRowPassesRestartsOnTheEvolvedTable() throws Exception {
    String table = table("mapper-failure");
    writeFirstShape(table, 0, 50);
    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);

    // Each mapper's first attempt throws at its first row: no row of the new shape reached a
    // file before the failure, let alone a commit.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    EvolvingRows.v2Rows(env, 50, 150).map(new FailingMapper(injected, 1, 1)).sinkTo(wider);
    env.execute("fails before any row passes");

    assertThat(injected.count()).isBetween(1, 2);
    assertRestartedCleanly(table, schemaVersion, 50, 150);
  }

  @Test
  void aJobWhoseFirstDataCommitFailsRestartsOnTheEvolvedTable() throws Exception {
    String table = table("commit-failure");
    writeFirstShape(table, 0, 50);
    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);

    // The committer's first attempt fails every commit, before it reaches the table: the first
    // checkpoint's files of the new shape are committed only after the restart.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    EvolvingRows.v2Rows(env, 50, 150)
        .sinkTo(new FaultyCommitSink(wider, injected, FaultyCommitSink.When.BEFORE_COMMIT, 1, 1));
    env.execute("first commit fails");

    assertThat(injected.count()).isEqualTo(1);
    assertRestartedCleanly(table, schemaVersion, 50, 150);
  }

  /**
   * After one failure the table holds the first shape's rows and the second's, each once; the
   * schema changed once, at the build, and the next version is a data commit.
   */
  private static void assertRestartedCleanly(
      String table, long schemaVersion, long firstRows, long rows) throws Exception {
    assertThat(rows(table))
        .containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(firstRows, rows));
    assertThat(DeltaLogFiles.actions(table, schemaVersion + 1, "add")).isNotEmpty();
    for (long v = schemaVersion + 1; v <= DeltaTableReader.version(table); v++) {
      assertThat(DeltaLogFiles.actions(table, v, "metaData")).as("version %d", v).isEmpty();
    }
    // A resubmitted job finds the table evolved already and commits nothing when built.
    long version = DeltaTableReader.version(table);
    sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
  }

  /** Rows {@code from} to {@code from + count - 1} of the first shape, in one batch job. */
  private static void writeFirstShape(String table, long from, long count) throws Exception {
    EvolvingRows.writeInBatch(FLINK, V1, sink(table, V1).build(), from, count);
  }

  private static DeltaSinkBuilder sink(String table, RowType type) {
    return DeltaSink.builder().tablePath(table).rowType(type).partitionColumns("bucket");
  }

  private static List<List<Object>> rows(String table) {
    return DeltaTableReader.readAll(table);
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
