/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Attempts;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.ChangelogMirror;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.ForeignStatements;
import io.github.flinkdelta.it.support.HeldCommitSink;
import io.github.flinkdelta.it.support.SharedSpark;
import io.github.flinkdelta.it.support.StopGate;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.sparktestkit.SparkSqlException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An upsert job with in-job compaction writes a table that real Spark with Delta Lake changes
 * meanwhile ({@link SparkSql}, in a child JVM): {@code INSERT}, {@code DELETE}, {@code UPDATE},
 * {@code MERGE} and {@code OPTIMIZE}. The table must end as the changelog applied together with
 * Spark's statements, each key once in every version; the job must never restart; and a mirror
 * built from a {@code CHANGELOG} read of the table's whole history must equal it.
 */
class UpsertBesideSparkITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static SparkSql spark;

  @TempDir Path dir;

  private final Changelog changelog = new Changelog(ForeignStatements.KEYS);

  @BeforeAll
  static void startSpark() {
    spark = SharedSpark.get();
  }

  /**
   * Each statement runs at a stop of the generator, once the table holds every change before it;
   * the job's writers compact their files all along, so Spark's commits race theirs.
   */
  @Test
  void sparkStatementsBesideTheJobLeaveExactlyTheChangelogAppliedWithThem() throws Exception {
    String table = dir.resolve("beside-spark").toUri().toString();
    List<ForeignStatements> statements = List.of(ForeignStatements.values());
    long[] stops = new long[statements.size()];
    for (int i = 0; i < stops.length; i++) {
      stops[i] = 1_500L * (i + 1);
    }
    long changes = stops[stops.length - 1] + 1_500;
    StopGate gate = StopGate.at(shared, stops);
    Attempts attempts = Attempts.in(shared);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(200).restarts(3).env();
    changelog
        .source(env, 0, changes, gate.pacedAt(3_000))
        .map(attempts.probe())
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(compactingSink(table));
    JobClient job = env.executeAsync("upserts beside Spark");

    Map<Long, List<Object>> expected = new TreeMap<>();
    long from = 0;
    for (int stop = 0; stop < stops.length; stop++) {
      expected = changelog.expected(expected, from, stops[stop]);
      Map<Long, List<Object>> before = expected;
      int at = stop;
      awaitRows(job, "the changes before stop " + stop, () -> gate.holdsAt(at), table, before);
      ForeignStatements statement = statements.get(stop);
      runRetrying(statement.sql(sparkName(table), stops[stop]));
      expected = statement.apply(expected, stops[stop]);
      UpsertAssert.assertExact(table, expected);
      gate.release(stop);
      from = stops[stop];
    }
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    UpsertAssert.assertExact(table, changelog.expected(expected, from, changes));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    assertThat(attempts.started()).as("attempts of the job's tasks: no restart").containsExactly(0);
    assertThat(sparkVersions(table)).as("versions Spark committed").hasSizeGreaterThanOrEqualTo(5);
    assertThat(rewriteVersions(table)).as("versions of the writers' compactions").isNotEmpty();
    ChangelogMirror.assertMirrors(FLINK, table, dir.resolve("mirror").toUri().toString());
  }

  /**
   * Spark deletes or updates rows while a compaction of the job's writers that read those rows
   * waits for its commit: the compaction lands after Spark's version and must carry its change
   * over, never bring back a row Spark deleted or leave a key twice.
   */
  @ParameterizedTest(name = "Spark {0} while a compaction waits for its commit")
  @EnumSource(
      value = ForeignStatements.class,
      names = {"DELETE", "UPDATE"})
  void aChangeSparkMakesWhileAWritersCompactionWaitsForItsCommitStays(ForeignStatements statement)
      throws Exception {
    String table = dir.resolve("held-" + statement).toUri().toString();
    long changes = 6_000;
    // Many keys, each changed now and then: most rows the compaction read are still live when Spark
    // runs, so that Spark changes rewritten files.
    Changelog changelog = new Changelog(5_000);
    HeldCommitSink.Hold hold = HeldCommitSink.Hold.in(shared);
    Attempts attempts = Attempts.in(shared);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(200).restarts(3).env();
    changelog
        .source(env, 0, changes, 1_000)
        .map(attempts.probe())
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(new HeldCommitSink(compactingSink(table), hold, 3, true));
    JobClient job = env.executeAsync("upserts, Spark " + statement + " beside a compaction");

    Await.until(job, "a compaction's commit held", hold::holding);
    // Every change up to the newest row in the table is committed: the held checkpoint's come
    // later. The statement names only those.
    long committed =
        DeltaTableReader.readAll(table).stream()
            .mapToLong(ForeignStatements::version)
            .max()
            .orElseThrow();
    long sparkVersion = runRetrying(statement.sql(sparkName(table), committed + 1));
    hold.release();
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    Map<Long, List<Object>> expected = statement.apply(changelog.expected(changes), committed + 1);
    UpsertAssert.assertExact(table, expected);
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    assertThat(attempts.started()).as("attempts of the job's tasks: no restart").containsExactly(0);
    // The race happened: the held compaction removed files Spark had changed.
    Set<String> sparkChanged = new HashSet<>();
    DeltaLogFiles.actions(table, sparkVersion, "remove")
        .forEach(remove -> sparkChanged.add(fileName(remove.get("path").asText())));
    Set<String> compacted = new HashSet<>();
    for (long version : rewriteVersions(table)) {
      if (version > sparkVersion) {
        DeltaLogFiles.actions(table, version, "remove")
            .forEach(remove -> compacted.add(fileName(remove.get("path").asText())));
      }
    }
    compacted.retainAll(sparkChanged);
    assertThat(compacted).as("files Spark changed that the held compaction rewrote").isNotEmpty();
    ChangelogMirror.assertMirrors(FLINK, table, dir.resolve("mirror").toUri().toString());
  }

  /**
   * A table that carries the stale-index mark of another app id, as an earlier connector version
   * left it, takes a new upsert job that fails over twice: the job ends, exact.
   */
  @Test
  void aJobOnATableWithAnotherAppsStaleIndexMarkFailsOverAndEnds() throws Exception {
    String table = dir.resolve("marked").toUri().toString();
    StreamExecutionEnvironment first = FLINK.job().parallelism(2).checkpointEveryMillis(100).env();
    changelog.source(first, 0, 2_000, 4_000).sinkTo(compactingSink(table));
    first.execute("the first job");
    spark.execute(
        "ALTER TABLE "
            + sparkName(table)
            + " SET TBLPROPERTIES ('flink.upsert.stale-index' = '40:an-earlier-job')");

    FaultCounter failures = FaultCounter.in(shared);
    StreamExecutionEnvironment second =
        FLINK.job().parallelism(2).checkpointEveryMillis(100).restarts(3).env();
    changelog
        .source(second, 2_000, 4_000, 2_000)
        .map(FailingMapper.untilFired(failures, 2, 1_000))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(compactingSink(table));
    second
        .executeAsync("a second job on the marked table")
        .getJobExecutionResult()
        .get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    assertThat(failures.count()).isEqualTo(2);
    UpsertAssert.assertExact(table, changelog.expected(6_000));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
  }

  /**
   * Spark keeps nulls out of a column while the job runs. Delta 4.4's {@code ALTER COLUMN ... SET
   * NOT NULL} is refused by Spark itself ("Cannot change nullable column to non-nullable"), so a
   * Spark user does it with a CHECK constraint: the sink does not evaluate constraints, and the
   * job's next commit is refused naming the constraint, the table and what to do, so that no row
   * the constraint forbids is committed.
   */
  @Test
  void aConstraintSparkAddsWhileTheJobRunsIsNeverBrokenByACommit() throws Exception {
    String table = dir.resolve("constrained").toUri().toString();
    StopGate gate = StopGate.at(shared, 1_000);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(100).restarts(1).env();
    changelog
        .source(env, 0, 3_000, gate.pacedAt(3_000))
        .map(new NullPayloadFrom(1_000))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(compactingSink(table));
    JobClient job = env.executeAsync("nulls after a NOT NULL constraint");
    Map<Long, List<Object>> before = changelog.expected(1_000);
    awaitRows(job, "the first changes", () -> gate.holdsAt(0), table, before);
    assertThatThrownBy(
            () ->
                spark.execute(
                    "ALTER TABLE " + sparkName(table) + " ALTER COLUMN payload SET NOT NULL"))
        .isInstanceOf(SparkSqlException.class)
        .hasMessageContaining("Cannot change nullable column to non-nullable");
    runRetrying(
        "ALTER TABLE "
            + sparkName(table)
            + " ADD CONSTRAINT payload_present CHECK (payload IS NOT NULL)");
    long constrainedAt = DeltaTableReader.version(table);
    gate.release(0);

    assertThatThrownBy(
            () -> job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES))
        .rootCause()
        .hasMessageContaining(table)
        .hasMessageContaining("CHECK constraint 'payload_present'")
        .hasMessageContaining("DROP CONSTRAINT");
    assertThat(DeltaTableReader.version(table))
        .as("versions after the constraint")
        .isEqualTo(constrainedAt);
    UpsertAssert.assertExact(table, before);
  }

  /**
   * Spark drops the deletion vector feature while the job runs: the upsert job's next commit, which
   * would write a deletion vector, is refused naming the feature and what to do, and nothing is
   * committed after the change.
   */
  @Test
  void afterSparkTurnsDeletionVectorsOffNoCommitWritesOne() throws Exception {
    String table = dir.resolve("no-dvs").toUri().toString();
    StopGate gate = StopGate.at(shared, 1_000);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(100).restarts(1).env();
    changelog.source(env, 0, 3_000, gate.pacedAt(3_000)).sinkTo(compactingSink(table));
    JobClient job = env.executeAsync("upserts after deletion vectors are turned off");
    Map<Long, List<Object>> before = changelog.expected(1_000);
    Await.until(
        job, "the first changes committed", () -> gate.holdsAt(0) && sameRows(table, before));
    dropDeletionVectors(table);
    long droppedAt = DeltaTableReader.version(table);
    gate.release(0);

    assertThatThrownBy(
            () -> job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES))
        .rootCause()
        .hasMessageContaining(table)
        .hasMessageContaining("no longer supports deletion vectors")
        .hasMessageContaining("delta.enableDeletionVectors");
    assertThat(DeltaTableReader.version(table)).as("versions after the drop").isEqualTo(droppedAt);
    UpsertAssert.assertExact(table, before);
  }

  /**
   * Drops the deletion vector feature as Delta 4.4 does in one statement: the property unset, the
   * vectors purged into rewritten files, the feature gone from the protocol (and {@code
   * checkpointProtection} in it).
   */
  private static void dropDeletionVectors(String table) {
    runRetrying("ALTER TABLE " + sparkName(table) + " DROP FEATURE deletionVectors");
    assertThat(DeltaTableReader.properties(table)).doesNotContainKey("delta.enableDeletionVectors");
  }

  /**
   * Runs {@code sql}, again when it loses a race with the job's commits (Delta's concurrent
   * modification errors, after which nothing of it landed).
   *
   * @return the version Spark committed
   */
  private static long runRetrying(String sql) {
    for (int attempt = 1; ; attempt++) {
      try {
        spark.execute(sql);
        // The newest version first; its first column is the version.
        List<List<String>> history = spark.query("DESCRIBE HISTORY " + tableOf(sql) + " LIMIT 1");
        return Long.parseLong(history.get(0).get(0));
      } catch (SparkSqlException e) {
        if (attempt >= 20 || !e.getMessage().contains("Concurrent")) {
          throw e;
        }
      }
    }
  }

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The table a statement of {@link ForeignStatements} names. */
  private static String tableOf(String sql) {
    int start = sql.indexOf("delta.`");
    return sql.substring(start, sql.indexOf('`', start + 7) + 1);
  }

  /** The versions whose commit Spark made. */
  private static List<Long> sparkVersions(String table) {
    return DeltaLogFiles.versions(table).stream()
        .filter(
            version ->
                DeltaLogFiles.actions(table, version, "commitInfo").stream()
                    .anyMatch(info -> info.path("engineInfo").asText().contains("Spark")))
        .toList();
  }

  /** The versions of the writers' compactions. */
  private static List<Long> rewriteVersions(String table) {
    return DeltaLogFiles.versions(table).stream()
        .filter(
            version ->
                DeltaLogFiles.actions(table, version, "txn").stream()
                    .map(txn -> txn.get("appId").asText())
                    .anyMatch(id -> id.endsWith("/compactions")))
        .toList();
  }

  private static String sparkName(String table) {
    return "delta.`" + Path.of(URI.create(table)) + "`";
  }

  /**
   * Waits until {@code held} and the table holds exactly {@code expected}; fails showing how it
   * differs when it never does.
   */
  private static void awaitRows(
      JobClient job,
      String what,
      java.util.function.BooleanSupplier held,
      String table,
      Map<Long, List<Object>> expected)
      throws Exception {
    try {
      Await.until(job, what + " committed", () -> held.getAsBoolean() && sameRows(table, expected));
    } catch (AssertionError e) {
      UpsertAssert.assertExact(table, expected);
      throw e;
    }
  }

  private static boolean sameRows(String table, Map<Long, List<Object>> expected) {
    try {
      List<List<Object>> rows = DeltaTableReader.readAll(table);
      return rows.size() == expected.size()
          && new HashSet<>(rows).equals(new HashSet<>(Changelog.rows(expected)));
    } catch (RuntimeException notYet) {
      return false;
    }
  }

  private static DeltaSink compactingSink(String table) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(Changelog.TYPE)
        .primaryKey("id")
        .partitionColumns("bucket")
        .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
        .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
        .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
        .build();
  }

  /** Nulls the payload of every tenth change from {@code from} on. */
  private static final class NullPayloadFrom
      implements org.apache.flink.api.common.functions.MapFunction<
          org.apache.flink.table.data.RowData, org.apache.flink.table.data.RowData> {
    private static final long serialVersionUID = 1L;
    private final long from;

    NullPayloadFrom(long from) {
      this.from = from;
    }

    @Override
    public org.apache.flink.table.data.RowData map(org.apache.flink.table.data.RowData row) {
      long change = row.getLong(2);
      if (change < from || change % 10 != 0) {
        return row;
      }
      org.apache.flink.table.data.GenericRowData nulled =
          org.apache.flink.table.data.GenericRowData.of(
              row.getLong(0), row.getInt(1), change, null);
      nulled.setRowKind(row.getRowKind());
      return nulled;
    }
  }
}
