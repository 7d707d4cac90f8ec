/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FaultyCommitSink;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.LogCapture;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streaming upsert job that compacts its table while it runs: each writer subtask rewrites its
 * own files and moves its key index in the checkpoint that commits the rewrite. Through task
 * failures (which also kill compactions in flight) and a failure of the first commit that carries a
 * rewrite, before or after it landed, on a table whose keys move between partitions, the table ends
 * equal to the changelog's reference map with each key once in every version; the writers' rewrites
 * landed in versions of their own that change no row (every action {@code dataChange = false}, the
 * removed files' live rows as many as the added files'), after the checkpoint's own version, no
 * file a rewrite removed is added again, the job never restarted but for the injected failures, and
 * the table holds far fewer files than the stream wrote.
 */
class UpsertInJobCompactionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final long CHANGES = 8_000;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(
      value = FaultyCommitSink.When.class,
      names = {"BEFORE_COMMITTING_REWRITE", "AFTER_COMMITTING_REWRITE"})
  void writersCompactingTheirOwnFilesThroughFailuresKeepTheLastValueOfEveryKey(
      FaultyCommitSink.When commitFault) throws Exception {
    String table = dir.resolve("compacting-upserts").toUri().toString();
    Changelog changelog = new Changelog(300);
    FaultCounter taskFailures = FaultCounter.in(shared);
    FaultCounter commitFailures = FaultCounter.in(shared);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(200).restarts(10).env();
    changelog
        .source(env, 0, CHANGES, 1_000)
        .map(FailingMapper.untilFired(taskFailures, 2, 2_000))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(
            new FaultyCommitSink(
                DeltaSink.builder()
                    .tablePath(table)
                    .rowType(Changelog.TYPE)
                    .primaryKey("id")
                    .partitionColumns("bucket")
                    .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                    .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 3)
                    .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                    .build(),
                commitFailures,
                commitFault,
                Integer.MAX_VALUE,
                1));
    env.execute("upserts compacting their own files");

    assertThat(taskFailures.count()).as("task failures injected").isEqualTo(2);
    assertThat(commitFailures.count())
        .as("failures of the commit of a writer's compaction injected")
        .isEqualTo(1);
    UpsertAssert.assertExact(table, changelog.expected(CHANGES));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    assertThat(DeltaLogFiles.snapshot(table).getTableProperties())
        .as("the mark earlier versions left when they settled deletes by key and restarted")
        .doesNotContainKey("flink.upsert.stale-index");

    int rewrites = 0;
    long streamed = 0;
    Set<String> compactedAway = new HashSet<>();
    Set<String> added = new HashSet<>();
    for (long version : DeltaLogFiles.versions(table)) {
      List<JsonNode> adds = DeltaLogFiles.actions(table, version, "add");
      assertThat(adds)
          .extracting(add -> add.get("path").asText())
          .as("files version %d adds after a rewrite removed them", version)
          .noneMatch(compactedAway::contains);
      boolean rewrote = false;
      for (JsonNode remove : DeltaLogFiles.actions(table, version, "remove")) {
        if (!remove.get("dataChange").asBoolean()) {
          compactedAway.add(remove.get("path").asText());
          rewrote = true;
        }
      }
      for (JsonNode add : adds) {
        String path = add.get("path").asText();
        if (!added.add(path)) {
          continue; // re-added with a new deletion vector: a change of data
        }
        boolean compacted = path.contains("-compacted-");
        assertThat(add.get("dataChange").asBoolean())
            .as("dataChange of the first add of %s, in version %d", path, version)
            .isEqualTo(!compacted);
        if (!compacted) {
          streamed++;
        }
      }
      if (rewrote) {
        rewrites++;
        assertThat(DeltaLogFiles.actions(table, version, "txn"))
            .as("a writer's rewrite lands in a version of its own, after its checkpoint's")
            .singleElement()
            .satisfies(txn -> assertThat(txn.get("appId").asText()).endsWith("/compactions"));
        List<JsonNode> removes = DeltaLogFiles.actions(table, version, "remove");
        assertThat(removes).extracting(r -> r.get("dataChange").asBoolean()).containsOnly(false);
        assertThat(adds).extracting(a -> a.get("dataChange").asBoolean()).containsOnly(false);
        assertThat(DeltaLogFiles.liveRows(adds))
            .as("rows version %d adds against the rows it removes", version)
            .isEqualTo(DeltaLogFiles.liveRows(removes));
      }
    }
    assertThat(rewrites).as("versions with a writer's rewrite").isGreaterThan(2);
    assertThat(DeltaTableReader.fileCount(table)).isLessThan(streamed / 2);
  }

  /**
   * A second job, at another parallelism and without state, on a table the first job's writers
   * wrote: its writer subtask 0 finds files of its prefix holding keys it does not own, and leaves
   * them alone instead of moving rows its index does not hold.
   */
  @Test
  void aWriterLeavesAloneTheFilesOfItsPrefixThatHoldKeysOfOtherSubtasks() throws Exception {
    String table = dir.resolve("rescaled-compacting").toUri().toString();
    Changelog changelog = new Changelog(300);
    long first = 3_000;
    long second = 6_000;
    run(table, changelog, 0, first, 2, false);
    try (LogCapture logs = LogCapture.of("io.github.flinkdelta.sink", Level.INFO)) {
      run(table, changelog, first, second, 3, true);
      assertThat(logs.text())
          .as("a writer met a file of its prefix with keys of other subtasks and left it")
          .contains("holds keys of other writer subtasks")
          .contains("hands on a compaction");
    }
    UpsertAssert.assertExact(table, changelog.expected(first + second));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
  }

  private static void run(
      String table, Changelog changelog, long from, long count, int parallelism, boolean compact)
      throws Exception {
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(parallelism).checkpointEveryMillis(200).env();
    changelog
        .source(env, from, count, 1_000)
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(Changelog.TYPE)
                .primaryKey("id")
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.COMPACTION_ENABLED, compact)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                .build());
    env.execute("upserts at parallelism " + parallelism);
  }
}
