/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.maintenance.VacuumResult;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FaultyCommitSink;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

/**
 * Orphan cleanup and vacuum beside a sink: a vacuum deletes exactly the files no version references
 * (those of a checkpoint whose commit never happened) once they are older than the retention; the
 * files of a checkpoint that completed but was not committed stay while they are younger than the
 * retention, and a job restored from it commits them; and when a too-short downtime retention
 * deleted them, the restored job stops naming them instead of committing a version that points at
 * missing files.
 */
class VacuumITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final int BUCKETS = 3;
  private static final Duration WEEK = Duration.ofDays(7);

  @TempDir Path dir;

  @Test
  void theFilesOfAnAbandonedCheckpointAreTheOrphansAVacuumDeletesOnceTheyAreOld() throws Exception {
    String table = dir.resolve("t").toUri().toString();
    // The job fails before a commit and is never restored: its last checkpoint's files are orphans.
    failBeforeACommit(table);
    Set<String> orphans = new HashSet<>(filesOnDisk());
    orphans.removeAll(addedPaths(table));
    assertThat(orphans).as("files of the checkpoint never committed").isNotEmpty();
    List<List<Object>> rows = DeltaTableReader.readAll(table);

    try (DeltaTable delta = open(table)) {
      assertThat(delta.maintenance().vacuum(WEEK, false).deleted())
          .as("young files stay")
          .isEmpty();
      ageDataFiles();

      VacuumResult dryRun = delta.maintenance().vacuum(WEEK, true);
      assertThat(new HashSet<>(dryRun.deleted())).isEqualTo(orphans);
      assertThat(filesOnDisk()).containsAll(orphans);

      VacuumResult result = delta.maintenance().vacuum(WEEK, false);

      assertThat(new HashSet<>(result.deleted())).isEqualTo(orphans);
    }
    assertThat(filesOnDisk()).isEqualTo(addedPaths(table));
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(rows);
  }

  @Test
  void theFilesOfACheckpointNotYetCommittedSurviveAVacuumAndTheRestoredJobCommitsThem()
      throws Exception {
    String table = dir.resolve("t").toUri().toString();
    Path retained = failBeforeACommit(table);
    Set<String> pending = new HashSet<>(filesOnDisk());
    pending.removeAll(addedPaths(table));
    assertThat(pending).as("files of checkpoints not committed").isNotEmpty();

    try (DeltaTable delta = open(table)) {
      assertThat(delta.maintenance().vacuum(WEEK, false).deleted())
          .doesNotContainAnyElementsOf(pending);
    }
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restoredFrom(retained.toUri().toString()).env();
    TestRows.source(env, 4_000, 4_000, BUCKETS).sinkTo(sink(table));
    env.execute("restored after a vacuum");

    TestRows.assertTableHoldsExactly(table, 4_000, BUCKETS);
  }

  @Test
  void aRestoredCheckpointWhoseFilesAVacuumDeletedStopsTheJobNamingThem() throws Exception {
    String table = dir.resolve("t").toUri().toString();
    Path retained = failBeforeACommit(table);
    long versions = DeltaTableReader.version(table);
    ageDataFiles();
    try (DeltaTable delta = open(table)) {
      assertThat(delta.maintenance().vacuum(WEEK, false).deleted()).isNotEmpty();
    }

    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restoredFrom(retained.toUri().toString()).env();
    TestRows.source(env, 4_000, 4_000, BUCKETS).sinkTo(sink(table));
    JobClient job = env.executeAsync("restored after a vacuum that went too far");

    assertThatThrownBy(
            () -> job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES))
        .hasStackTraceContaining("its data files are gone")
        .hasStackTraceContaining("retention");
    assertThat(DeltaTableReader.version(table)).isEqualTo(versions);
    assertThat(new HashSet<>(filesOnDisk())).containsAll(addedPaths(table));
  }

  /**
   * Streams into {@code table} until a commit fails, without restarts: the retained checkpoint
   * holds a committable the table does not.
   */
  private Path failBeforeACommit(String table) throws Exception {
    Path checkpoints = dir.resolve("checkpoints");
    StreamExecutionEnvironment env =
        FLINK
            .job()
            .checkpointEveryMillis(100)
            .retainingCheckpointsIn(checkpoints.toUri().toString())
            .env();
    TestRows.source(env, 4_000, 1_000, BUCKETS)
        .sinkTo(
            new FaultyCommitSink(
                sink(table),
                FaultCounter.in(shared),
                FaultyCommitSink.When.BEFORE_COMMITTING_FILES,
                1,
                3));
    JobClient job = env.executeAsync("commit fails");
    assertThatThrownBy(
            () -> job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES))
        .hasStackTraceContaining("Injected failure before the Delta commit");
    return latestCheckpoint(checkpoints);
  }

  private static DeltaSink sink(String table) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }

  private static DeltaTable open(String table) {
    return DeltaTable.open(
        TableRequest.of(new PathTableLocator(table), HadoopConfigurations.of(Map.of())));
  }

  /** The paths every version of the log adds. */
  private static Set<String> addedPaths(String table) {
    return DeltaLogFiles.addsFrom(table, 0).stream()
        .map(add -> java.net.URI.create(add.get("path").asText()).getPath())
        .collect(Collectors.toSet());
  }

  /** The table's data files on disk, relative to its root; log and hidden files aside. */
  private Set<String> filesOnDisk() throws IOException {
    Path root = dir.resolve("t");
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(f -> root.relativize(f).toString())
          .filter(f -> !f.startsWith("_delta_log"))
          .filter(f -> Stream.of(f.split("/")).noneMatch(p -> p.startsWith(".")))
          .collect(Collectors.toSet());
    }
  }

  private void ageDataFiles() throws IOException {
    long eightDaysAgo = System.currentTimeMillis() - Duration.ofDays(8).toMillis();
    for (String file : filesOnDisk()) {
      Files.setLastModifiedTime(dir.resolve("t").resolve(file), FileTime.fromMillis(eightDaysAgo));
    }
  }

  private static Path latestCheckpoint(Path directory) throws IOException {
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
