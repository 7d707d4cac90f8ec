/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming job writes Delta checkpoints every few versions, on a path table and on a Unity
 * Catalog managed table (after its commits are published), with task failures in between; the table
 * reads back exactly.
 */
class DeltaCheckpointITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 3;
  private static final long ROWS = 3_000;

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension(uc -> uc.token("t"));

  @Test
  void aPathTableGetsCheckpointsEveryThreeVersions() throws Exception {
    String table = dir.resolve("path").toUri().toString();
    run(DeltaSink.builder().tablePath(table));

    TestRows.assertTableHoldsExactly(table, ROWS, BUCKETS);
    assertCheckpointsEveryThirdVersion(dir.resolve("path"));
  }

  @Test
  void aUnityCatalogTableGetsCheckpointsOfPublishedVersions() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of("t"));
    run(DeltaSink.builder().unityCatalog(connection).tableName("main.default.checkpointed"));

    assertThat(CatalogReads.rows(connection, "main.default.checkpointed"))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(ROWS, BUCKETS));
    assertCheckpointsEveryThirdVersion(catalog.storageRoot());
  }

  private void run(DeltaSinkBuilder builder) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    TestRows.source(env, ROWS, 1_500, BUCKETS)
        .map(new FailingMapper(injected, 1, 900))
        .sinkTo(
            builder
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
                .build());
    env.execute("delta checkpoints");
    assertThat(injected.count()).isPositive();
  }

  /**
   * The table's log under {@code root} holds Delta checkpoints only at versions that are multiples
   * of three, none past the latest commit, {@code _last_checkpoint} names the newest, and each
   * holds exactly the files the commits up to its version added (the sink only adds). Which
   * multiples got one depends on timing: a version reached while a checkpoint is written gets none.
   */
  private static void assertCheckpointsEveryThirdVersion(Path root) throws IOException {
    Path log;
    try (Stream<Path> files = Files.walk(root)) {
      List<Path> all = files.toList();
      assertThat(all).noneMatch(p -> p.getFileName().toString().endsWith(".tmp"));
      log = all.stream().filter(p -> p.endsWith("_delta_log")).findFirst().orElseThrow();
    }
    List<Long> checkpoints = versions(log, ".checkpoint.parquet");
    List<Long> commits = versions(log, ".json");
    long latest = commits.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(checkpoints).isNotEmpty().allMatch(v -> v % 3 == 0).allMatch(v -> v <= latest);
    long newest = checkpoints.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(Files.readString(log.resolve("_last_checkpoint")))
        .contains("\"version\":" + newest + ",");
    for (long version : checkpoints) {
      long added = 0;
      for (long commit = 0; commit <= version; commit++) {
        added +=
            Files.readAllLines(log.resolve(String.format("%020d.json", commit))).stream()
                .filter(line -> line.startsWith("{\"add\""))
                .count();
      }
      assertThat(addsIn(log.resolve(String.format("%020d.checkpoint.parquet", version))))
          .as("files in the checkpoint of version %d", version)
          .isEqualTo(added);
    }
  }

  private static List<Long> versions(Path log, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(log)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d{20}" + java.util.regex.Pattern.quote(suffix)))
          .map(n -> Long.parseLong(n.substring(0, 20)))
          .sorted()
          .toList();
    }
  }

  private static long addsIn(Path checkpoint) throws IOException {
    long adds = 0;
    try (var reader =
        org.apache.parquet.hadoop.ParquetReader.builder(
                new org.apache.parquet.hadoop.example.GroupReadSupport(),
                new org.apache.hadoop.fs.Path(checkpoint.toUri()))
            .build()) {
      for (var action = reader.read(); action != null; action = reader.read()) {
        if (action.getFieldRepetitionCount("add") > 0) {
          adds++;
        }
      }
    }
    return adds;
  }
}
