/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.Attempts;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.CatalogStatements;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.ChangelogMirror;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.ForeignStatements;
import io.github.flinkdelta.it.support.StopGate;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An upsert job with in-job compaction writes a Unity Catalog managed table that another writer
 * changes meanwhile through the catalog ({@link CatalogStatements}: Delta Kernel with the project's
 * catalog client, every commit ratified by the catalog, never a write around it), with the
 * statements {@link UpsertBesideSparkITCase} runs in Spark on a path table, through either of the
 * catalog's commit APIs. The table must end as the changelog applied together with the statements;
 * the job must never restart; and a mirror built from a {@code CHANGELOG} read of the table through
 * the catalog must equal it.
 */
class UpsertBesideACatalogWriterITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final String TOKEN = "uc-beside-token";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir Path dir;

  private final Changelog changelog = new Changelog(ForeignStatements.KEYS);

  @ParameterizedTest(name = "commit API {0}")
  @EnumSource(
      value = CommitApi.class,
      names = {"LEGACY", "DELTA_V1"})
  void anotherCatalogWritersStatementsBesideTheJobLeaveExactlyTheChangelogAppliedWithThem(
      CommitApi api) throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection =
        new UnityCatalogConnection(
            server.uri(),
            new UnityCatalogConnection.StaticToken(Secret.of(TOKEN)),
            api,
            UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT);
    String table = "main.default.beside_" + api.name().toLowerCase(java.util.Locale.ROOT);
    List<ForeignStatements> statements = List.of(ForeignStatements.values());
    long[] stops = new long[statements.size()];
    for (int i = 0; i < stops.length; i++) {
      stops[i] = 1_000L * (i + 1);
    }
    long changes = stops[stops.length - 1] + 1_000;
    StopGate gate = StopGate.at(shared, stops);
    Attempts attempts = Attempts.in(shared);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(200).restarts(3).env();
    changelog
        .source(env, 0, changes, gate.pacedAt(3_000))
        .map(attempts.probe())
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection)
                .tableName(table)
                .rowType(Changelog.TYPE)
                .primaryKey("id")
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                .build());
    JobClient job = env.executeAsync("upserts beside a catalog writer, " + api);
    CatalogStatements writer = new CatalogStatements(connection, table);

    Map<Long, List<Object>> expected = new TreeMap<>();
    long from = 0;
    for (int stop = 0; stop < stops.length; stop++) {
      expected = changelog.expected(expected, from, stops[stop]);
      Map<Long, List<Object>> before = expected;
      int at = stop;
      try {
        Await.until(
            job,
            "the changes before stop " + stop + " committed",
            () -> gate.holdsAt(at) && sameRows(connection, table, before));
      } catch (AssertionError e) {
        UpsertAssert.assertRows(CatalogReads.rows(connection, table), before, table);
        throw e;
      }
      ForeignStatements statement = statements.get(stop);
      writer.run(statement, stops[stop]);
      expected = statement.apply(expected, stops[stop]);
      UpsertAssert.assertRows(
          CatalogReads.rows(connection, table), expected, table + " after " + statement);
      gate.release(stop);
      from = stops[stop];
    }
    job.getJobExecutionResult().get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);

    expected = changelog.expected(expected, from, changes);
    List<List<Object>> rows = CatalogReads.rows(connection, table);
    UpsertAssert.assertRows(rows, expected, table);
    assertThat(attempts.started()).as("attempts of the job's tasks: no restart").containsExactly(0);
    ChangelogMirror.assertMirrors(
        FLINK,
        DeltaSource.builder().unityCatalog(connection).tableName(table),
        rows,
        table,
        dir.resolve("mirror").toUri().toString());
  }

  private static boolean sameRows(
      UnityCatalogConnection connection, String table, Map<Long, List<Object>> expected) {
    try {
      List<List<Object>> rows = CatalogReads.rows(connection, table);
      return rows.size() == expected.size()
          && new HashSet<>(rows).equals(new HashSet<>(Changelog.rows(expected)));
    } catch (RuntimeException notYet) {
      return false;
    }
  }
}
