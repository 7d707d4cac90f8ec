/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Attempts;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FileRewrites;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SourceGate;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions.KeyIndex;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Another writer rewrites or removes a data file under a running upsert job, or deletes a row of it
 * with a deletion vector of its own, after the job's key index pointed into it. The job's writers
 * follow the change into their key index, and a commit that still deletes a row of that file
 * settles the delete by key (no deletion vector for a file the table no longer has, no key twice,
 * no key lost); the job never restarts, and ends with the table equal to the changelog applied on
 * top of the other writer's change.
 */
class UpsertConcurrentRewriteITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final long CHANGES = 8_000;

  private final Changelog changelog = new Changelog(500);

  @TempDir Path dir;

  enum OtherWriter {
    /** Rewrites the file under a new name, as a compaction would: the rows stay. */
    REWRITES,
    /** Removes the file, as another engine's {@code DELETE} of its rows would. */
    REMOVES,
    /**
     * Deletes the key's row with a deletion vector of its own, as another engine's {@code DELETE}
     * or {@code UPDATE} of the row would: the file stays, the row the index points at is gone.
     */
    DELETES_THE_ROW_OF
  }

  /**
   * Every kind of change by the other writer with the default (heap) index, and one with the index
   * in the state backend.
   */
  static Stream<Arguments> cases() {
    return Stream.concat(
        Arrays.stream(OtherWriter.values()).map(other -> Arguments.of(other, KeyIndex.AUTO)),
        Stream.of(Arguments.of(OtherWriter.DELETES_THE_ROW_OF, KeyIndex.STATE_BACKEND)));
  }

  @ParameterizedTest(name = "another writer {0} the file of the next change's key, index {1}")
  @MethodSource("cases")
  void aChangeOfAnotherWriterIsFollowedWithoutARestartAndTheTableStaysExact(
      OtherWriter other, KeyIndex index) throws Exception {
    String table = dir.resolve("rewritten-" + other + "-" + index).toUri().toString();
    long gateAt = gateWhereTheNextChangeHitsALiveKey(3_000);
    SourceGate gate = SourceGate.in(shared);
    Attempts attempts = Attempts.in(shared);

    long changedAt;
    String file;
    Map<Long, List<Object>> atChange;
    long passed;
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(100).restarts(3).env();
    changelog
        .source(env, 0, CHANGES, gate, gateAt)
        .map(attempts.probe())
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(sink(table, index));
    JobClient job = env.executeAsync("upserts, another writer " + other);

    // Every change before the gate is committed, and nothing more comes until it opens.
    Await.until(
        job,
        "the changes before the gate committed",
        () ->
            gate.waiting() == 1
                && UpsertAssert.repeatedKeys(DeltaTableReader.readAll(table)).isEmpty()
                && holds(table, changelog.expected(gate.emitted())));
    passed = gate.emitted();
    long key = changelog.keyOf(passed);
    Map<Long, List<Object>> before = changelog.expected(passed);
    assertThat(before).as("key %d of the next change is live", key).containsKey(key);
    long versionBefore = DeltaTableReader.version(table);

    // The other writer changes the file that holds the live row of the next change's key.
    file = fileHolding(table, before.get(key));
    atChange = new TreeMap<>(before);
    if (other == OtherWriter.REWRITES) {
      changedAt = FileRewrites.move(table, file).version();
    } else if (other == OtherWriter.REMOVES) {
      List<List<Object>> removed = FileRewrites.rowsByFile(table).get(file);
      changedAt = FileRewrites.remove(table, file);
      removed.forEach(row -> atChange.remove((Long) row.get(0)));
    } else {
      changedAt = FileRewrites.deleteRow(table, file, before.get(key));
      atChange.remove(key);
    }
    assertThat(changedAt).isEqualTo(versionBefore + 1);
    UpsertAssert.assertExact(table, atChange);

    gate.open();
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    // The table is the changelog applied on top of the other writer's change, each key once.
    UpsertAssert.assertExact(table, changelog.expected(atChange, passed, CHANGES));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    if (other != OtherWriter.DELETES_THE_ROW_OF) {
      // No commit after the other writer's brought the file it changed back (with a vector).
      assertThat(DeltaLogFiles.addsFrom(table, changedAt + 1))
          .extracting(add -> add.get("path").asText())
          .doesNotContain(file);
    }
    // No restart: the writers followed the other writer's version into their key index.
    assertThat(DeltaTableReader.properties(table)).doesNotContainKey("flink.upsert.stale-index");
    assertThat(attempts.started()).as("attempts of the job's tasks").containsExactly(0);
  }

  /**
   * A gate of about {@code near} changes such that the change after it, wherever the gate holds
   * ({@link SourceGate} may pass one change less), updates or deletes a live key.
   */
  private long gateWhereTheNextChangeHitsALiveKey(long near) {
    for (long at = near; ; at++) {
      if (changelog.expected(at - 1).containsKey(changelog.keyOf(at - 1))
          && changelog.expected(at).containsKey(changelog.keyOf(at))) {
        return at;
      }
    }
  }

  private static boolean holds(String table, Map<Long, List<Object>> expected) {
    return new java.util.HashSet<>(DeltaTableReader.readAll(table))
        .equals(new java.util.HashSet<>(Changelog.rows(expected)));
  }

  private static String fileHolding(String table, List<Object> row) {
    return FileRewrites.rowsByFile(table).entrySet().stream()
        .filter(file -> file.getValue().contains(row))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no data file of " + table + " holds " + row));
  }

  private static DeltaSink sink(String table, KeyIndex index) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(Changelog.TYPE)
        .primaryKey("id")
        .option(DeltaSinkOptions.UPSERT_KEY_INDEX, index)
        .build();
  }
}
