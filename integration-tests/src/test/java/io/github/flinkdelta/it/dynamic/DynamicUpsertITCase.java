/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.Savepoints;
import io.github.flinkdelta.it.support.SourceGate;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with a primary key through the dynamic sink: each table holds exactly the changelog's last
 * value of each of its keys after failures, with deletion vectors as the single-table sink writes
 * them, beside an appending table in the same job.
 */
class DynamicUpsertITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  @TempDir Path dir;

  /**
   * The writers also compact each table's files in the job, on one thread per subtask: every keyed
   * table gets rewrites of its own in versions that change no row, and still holds each key once;
   * the committer compacts the appending table beside them. The source holds after the first part
   * of the changelog until every keyed table has a rewrite (the runs then find their rows
   * unchanged, however slow the machine), and sends the rest after.
   */
  @Test
  void keyedTablesCompactedInTheJobHoldEachKeysLastValueExactlyThroughFailures() throws Exception {
    Map<String, Map<Long, List<Object>>> expected =
        assertExactThroughFailures(
            DeltaSinkOptions.KeyIndex.HEAP, SourceGate.in(shared), Duration.ZERO);
    for (String table : expected.keySet()) {
      assertThat(rewrites(table)).as("versions of %s with a writer's rewrite", table).isPositive();
    }
    // The appending table beside them is compacted by the committer, on its shared thread.
    String audit = path("cdc.audit");
    assertThat(DeltaLogFiles.versions(audit))
        .as("versions of cdc.audit that compact it")
        .anyMatch(
            version ->
                DeltaLogFiles.actions(audit, version, "remove").stream()
                    .anyMatch(remove -> !remove.get("dataChange").asBoolean()));
  }

  /**
   * The versions of {@code table} with a writer's rewrite that moved rows, each checked to change
   * no data.
   */
  private long rewrites(String table) {
    long rewrites = 0;
    for (long version : DeltaLogFiles.versions(path(table))) {
      List<JsonNode> txns = DeltaLogFiles.actions(path(table), version, "txn");
      if (txns.stream().anyMatch(txn -> txn.get("appId").asText().endsWith("/compactions"))) {
        List<JsonNode> adds = DeltaLogFiles.actions(path(table), version, "add");
        List<JsonNode> removes = DeltaLogFiles.actions(path(table), version, "remove");
        assertThat(Stream.concat(adds.stream(), removes.stream()))
            .extracting(action -> action.get("dataChange").asBoolean())
            .as("a rewrite of %s in version %d changes no data", table, version)
            .doesNotContain(true);
        assertThat(DeltaLogFiles.liveRows(adds))
            .as(
                "rows the rewrite of %s in version %d adds against those it removes",
                table, version)
            .isEqualTo(DeltaLogFiles.liveRows(removes));
        // A run whose rows all changed again before its commit lands as a version of no file.
        rewrites += removes.isEmpty() ? 0 : 1;
      }
    }
    return rewrites;
  }

  @Test
  void keyedTablesHoldEachKeysLastValueWithTheIndexInTheStateBackend() throws Exception {
    assertExactThroughFailures(DeltaSinkOptions.KeyIndex.STATE_BACKEND, null, Duration.ZERO);
  }

  /**
   * With a commit interval of a second and a checkpoint every 100 ms, each table's versions carry
   * the files and deletes of several checkpoints (a key updated in one and again in the next is
   * deleted from a file the same version adds), held in the aggregator's state across the failures,
   * and every table still holds each key's last value once. A table commits at most once a second
   * beside its first version, the first after each of the two restores and the one at the end of
   * the input.
   */
  @Test
  void keyedTablesCommittingOnceASecondHoldEachKeysLastValueExactlyThroughFailures()
      throws Exception {
    Duration interval = Duration.ofSeconds(1);
    Map<String, Map<Long, List<Object>>> expected =
        assertExactThroughFailures(DeltaSinkOptions.KeyIndex.HEAP, null, interval);
    for (String table : expected.keySet()) {
      List<Long> committedAt = new ArrayList<>();
      for (long version : DeltaLogFiles.versions(path(table))) {
        boolean rows =
            DeltaLogFiles.actions(path(table), version, "txn").stream()
                .anyMatch(txn -> !txn.get("appId").asText().endsWith("/compactions"));
        if (rows) {
          committedAt.add(
              Files.getLastModifiedTime(
                      dir.resolve(table.replace('.', '/'))
                          .resolve("_delta_log")
                          .resolve(String.format(Locale.ROOT, "%020d.json", version)))
                  .toMillis());
        }
      }
      long span = committedAt.get(committedAt.size() - 1) - committedAt.get(0);
      assertThat(committedAt)
          .as("versions with rows of %s, committed over %d ms", table, span)
          .hasSizeLessThanOrEqualTo((int) (span / interval.toMillis()) + 1 + 2 + 1);
    }
  }

  /**
   * @param gate null for a paced stream; else the stream, paced too, holds after half its changes
   *     until every keyed table has a writer's rewrite, and the writers compact
   */
  private Map<String, Map<Long, List<Object>>> assertExactThroughFailures(
      DeltaSinkOptions.KeyIndex index, SourceGate gate, Duration commitInterval) throws Exception {
    boolean compacting = gate != null;
    long count = compacting ? 6_000 : 12_000;
    Changelog changelog = new Changelog(compacting ? 3_000 : 700);
    ChangelogTables tables = new ChangelogTables("cdc.", 4);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    (compacting
            ? changelog
                .source(env, 0, count, gate, count / 2)
                .map(new Paced())
                .returns(InternalTypeInfo.of(Changelog.TYPE))
                .setParallelism(1)
            : changelog.source(env, 0, count, 6_000))
        .map(FailingMapper.untilFired(injected, 2, compacting ? 2_000 : 4_000))
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .setParallelism(1)
        .sinkTo(
            DeltaSink.dynamic(tables)
                .tableRoot(dir.toUri().toString())
                // A key's changes reach one router, in order, and from it their upsert writer.
                .distributeBy(ChangelogTables.byKey())
                .option(DeltaSinkOptions.UPSERT_KEY_INDEX, index)
                .option(DeltaSinkOptions.COMPACTION_ENABLED, compacting)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 1)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                .option(DynamicSinkOptions.COMMIT_INTERVAL, commitInterval)
                .build());
    JobClient job = env.executeAsync("dynamic upserts through failures");
    if (compacting) {
      Await.until(
          job,
          "a writer's rewrite in every keyed table",
          () ->
              tables.expected(changelog, count).keySet().stream()
                  .allMatch(table -> versionOrNone(path(table)) >= 0 && rewrites(table) > 0));
      gate.open();
    }
    job.getJobExecutionResult().get();

    assertThat(injected.count()).isEqualTo(2);
    Map<String, Map<Long, List<Object>>> expected = tables.expected(changelog, count);
    expected.forEach(
        (table, rows) -> {
          String path = path(table);
          UpsertAssert.assertExact(path, rows);
          UpsertAssert.assertNoVersionRepeatsAKey(path);
        });
    // The appending table beside them holds every change once, as an insert.
    assertThat(DeltaTableReader.readAll(path("cdc.audit"))).hasSize((int) count);
    assertThat(DeltaTableReader.readAll(path("cdc.audit")).stream().map(r -> r.get(2)).distinct())
        .hasSize((int) count);
    return expected;
  }

  /**
   * A job of keyed and appending tables stopped with a savepoint at parallelism 2, resumed at 3,
   * stopped again and finished at 1: the upsert writers' key groups move between subtasks with
   * their tables' index entries, and every table holds each key's last value once.
   */
  @Test
  void keyedTablesStayExactWhenTheJobIsRescaledUpAndDown() throws Exception {
    long count = 9_000;
    Changelog changelog = new Changelog(500);
    ChangelogTables tables = new ChangelogTables("rescaled.", 3);
    String audit = path("rescaled.audit");
    String savepoint = null;
    for (int parallelism : new int[] {2, 3}) {
      StreamExecutionEnvironment env =
          FLINK
              .job()
              .parallelism(parallelism)
              .checkpointEveryMillis(100)
              .restoredFrom(savepoint)
              .env();
      changelogSink(changelog.source(env, 0, count, 1_500), tables);
      var job = env.executeAsync("rescaled at " + parallelism);
      long from = savepoint == null ? 0 : DeltaTableReader.version(audit);
      long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
      while (versionOrNone(audit) < from + 3) {
        assertThat(System.nanoTime()).as("the audit table's versions").isLessThan(deadline);
        Thread.sleep(50);
      }
      savepoint = Savepoints.stop(job, dir.resolve("savepoints-" + parallelism));
    }
    long before = readAllCount(audit);
    assertThat(before).as("changes written before the last restore").isBetween(1L, count - 1);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(1).checkpointEveryMillis(100).restoredFrom(savepoint).env();
    changelogSink(changelog.source(env, 0, count, 20_000), tables);
    env.execute("rescaled at 1");

    tables
        .expected(changelog, count)
        .forEach(
            (table, rows) -> {
              UpsertAssert.assertExact(path(table), rows);
              UpsertAssert.assertNoVersionRepeatsAKey(path(table));
            });
    assertThat(DeltaTableReader.readAll(audit).stream().map(r -> r.get(2)).distinct().count())
        .isEqualTo(readAllCount(audit))
        .isEqualTo(count);
  }

  /** At most a change a millisecond: the changes before the gate span many checkpoints. */
  private static final class Paced implements MapFunction<RowData, RowData> {
    @Override
    public RowData map(RowData change) throws InterruptedException {
      Thread.sleep(1);
      return change;
    }
  }

  private void changelogSink(DataStream<RowData> changes, ChangelogTables tables) {
    changes
        .sinkTo(
            DeltaSink.dynamic(tables)
                .tableRoot(dir.toUri().toString())
                .distributeBy(ChangelogTables.byKey())
                .uidPrefix("dynamic")
                .build())
        .uid("dynamic");
  }

  private static long readAllCount(String table) {
    return DeltaTableReader.readAll(table).size();
  }

  private static long versionOrNone(String table) {
    try {
      return DeltaTableReader.version(table);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /**
   * A table that holds rows already is upserted by key from the first record on, with the index in
   * the state backend: reading the table's keys into the index must not leave the backend on
   * another key than the record's.
   */
  @Test
  void aTableThatHoldsRowsTakesUpsertsOfItsKeysFromTheFirstRecord() throws Exception {
    long keys = 300;
    KeyedUpdates first = new KeyedUpdates("pre.first", keys, -1);
    run(first, keys, null);
    run(first, 2 * keys, null);

    UpsertAssert.assertExact(path("pre.first"), first.expected(2 * keys));
  }

  /**
   * A restored job whose upsert writers did not all read a table's keys before the savepoint (no
   * record of the table reached some of them) reads them for those key groups when the table's next
   * record comes: every key of the table keeps one row.
   */
  @Test
  void writersThatNeverReadATablesKeysBeforeASavepointReadThemAfterIt() throws Exception {
    long keys = 300;
    KeyedUpdates all = new KeyedUpdates("pre.second", keys, -1);
    run(all, keys, null);
    // One key only, slowly: the writer that owns it alone reads the table's keys. The job stops
    // with a savepoint early in its ids; the restored job goes on from there with every key.
    KeyedUpdates one = new KeyedUpdates("pre.second", keys, 5);
    long ids = 10 * keys;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    ids(env, ids, 200).sinkTo(sink(one, "restored-job")).uid("dynamic");
    var job = env.executeAsync("one key");
    String table = path("pre.second");
    long start = DeltaTableReader.version(table);
    long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
    while (DeltaTableReader.version(table) < start + 2) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    String savepoint = Savepoints.stop(job, dir.resolve("savepoints"));

    run(all, ids, savepoint, "restored-job");

    // The restored job wrote every key after the savepoint, many times over.
    UpsertAssert.assertExact(table, all.expected(ids));
  }

  private void run(KeyedUpdates updates, long count, String savepoint) throws Exception {
    run(updates, count, savepoint, null);
  }

  private void run(KeyedUpdates updates, long count, String savepoint, String appId)
      throws Exception {
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restarts(3).restoredFrom(savepoint).env();
    ids(env, count, 5_000).sinkTo(sink(updates, appId)).uid("dynamic");
    env.execute("keyed updates");
  }

  /** Ids {@code 0 .. count - 1} from one source reader, at {@code perSecond}. */
  private static DataStream<RowData> ids(
      StreamExecutionEnvironment env, long count, double perSecond) {
    RowType type = RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"i"});
    return env.fromSource(
            new DataGeneratorSource<>(
                i -> (RowData) GenericRowData.of(i),
                count,
                RateLimiterStrategy.perSecond(perSecond),
                InternalTypeInfo.of(type)),
            WatermarkStrategy.noWatermarks(),
            "ids")
        .setParallelism(1)
        .uid("ids");
  }

  private DynamicDeltaSink<RowData> sink(KeyedUpdates updates, String appId) {
    var builder =
        DeltaSink.dynamic(updates)
            .tableRoot(dir.toUri().toString())
            .option(DeltaSinkOptions.UPSERT_KEY_INDEX, DeltaSinkOptions.KeyIndex.STATE_BACKEND)
            .distributeBy(updates.byKey())
            .uidPrefix("dynamic");
    if (appId != null) {
      builder.option(DeltaSinkOptions.APP_ID, appId);
    }
    return builder.build();
  }

  private String path(String table) {
    return dir.resolve(table.replace('.', '/')).toUri().toString();
  }
}
