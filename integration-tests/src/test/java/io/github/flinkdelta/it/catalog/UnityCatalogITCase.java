/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.LogCapture;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink on Unity Catalog managed tables: every version ratified by the catalog (uc-testkit over
 * HTTP, storage on local disk), exactly once through task failures, lost responses and bursts of
 * server errors.
 */
class UnityCatalogITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 4;
  private static final String TOKEN = "uc-test-token";
  private static final String UPDATE_TABLE =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";

  private static final String READ_ONLY_TOKEN = "read-only-" + java.util.UUID.randomUUID();

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN).readOnlyToken(READ_ONLY_TOKEN));

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;

  @BeforeEach
  void connect() {
    server = catalog.server();
    connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
  }

  @Test
  void managedTableIsWrittenExactlyOnceThroughTaskFailures() throws Exception {
    long count = 4_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 2_000, BUCKETS)
        .map(new FailingMapper(injected, 2, 600))
        .sinkTo(sink("main.default.events"));
    env.execute("uc task failures");

    assertThat(injected.count()).isGreaterThanOrEqualTo(2);
    assertExactlyInCatalog("main.default.events", count);
  }

  @Test
  void commitAppliedButResponseLostIsNeitherDuplicatedNorLost() throws Exception {
    long count = 2_000;
    DeltaSink sink = sink("main.default.lost");
    server.faults().dropResponseOfNext(UPDATE_TABLE, 2);
    server.faults().failNext(UPDATE_TABLE, 2, 503);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 2_000, BUCKETS).sinkTo(sink);
    env.execute("uc lost responses");

    assertExactlyInCatalog("main.default.lost", count);
    // Every version took one call; the lost responses and the failures each took more.
    assertThat((long) server.faults().calls(UPDATE_TABLE))
        .isGreaterThanOrEqualTo(server.latestVersion("main.default.lost") + 4);
  }

  @Test
  void aBurstOfTooManyRequestsIsRetriedWithoutLossOrDuplicate() throws Exception {
    long count = 1_500;
    DeltaSink sink = sink("main.default.throttled");
    server.faults().failNext(UPDATE_TABLE, 4, 429);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 2_000, BUCKETS).sinkTo(sink);
    env.execute("uc throttled");

    assertExactlyInCatalog("main.default.throttled", count);
    assertThat((long) server.faults().calls(UPDATE_TABLE))
        .isGreaterThanOrEqualTo(server.latestVersion("main.default.throttled") + 4);
  }

  @Test
  void twoJobsOnOneManagedTableOneFailingRepeatedlyEachLandExactlyOnce() throws Exception {
    long count = 2_000;
    DeltaSink first = sink("main.default.shared");
    DeltaSink second = sink("main.default.shared");
    StreamExecutionEnvironment env1 =
        FLINK.job().checkpointEveryMillis(100).restarts(3).parallelism(1).env();
    TestRows.source(env1, count, 2_000, BUCKETS).sinkTo(first);
    // The second job fails and recovers three times while the first commits next to it.
    StreamExecutionEnvironment env2 =
        FLINK.job().checkpointEveryMillis(100).restarts(5).parallelism(1).env();
    TestRows.source(env2, count, 2_000, BUCKETS)
        .map(new FailingMapper(injected, 3, 400))
        .map(row -> TestRows.row(row.getLong(0) + count, BUCKETS))
        .returns(org.apache.flink.table.runtime.typeutils.InternalTypeInfo.of(TestRows.TYPE))
        .sinkTo(second);
    var job1 = env1.executeAsync("writer one");
    var job2 = env2.executeAsync("writer two");
    job1.getJobExecutionResult().get();
    job2.getJobExecutionResult().get();

    // The injected failures fired; fewer than three when a restart of the second job failed for
    // another reason first (its commits race the first job's), which also counts as an attempt.
    assertThat(injected.count()).isBetween(1, 3);
    assertExactlyInCatalog("main.default.shared", 2 * count);
  }

  @Test
  void catalogDownLongerThanTheRetryBudgetFailsOverAndRecovers() throws Exception {
    long count = 1_500;
    DeltaSink sink =
        DeltaSink.builder()
            .unityCatalog(connection)
            .tableName("main.default.outage")
            .rowType(TestRows.TYPE)
            .partitionColumns("bucket")
            .option(io.github.flinkdelta.sink.DeltaSinkOptions.COMMIT_MAX_RETRIES, 1)
            .build();
    // Two commit attempts of three calls each fail; the task fails over and commits later.
    server.faults().failNext(UPDATE_TABLE, 8, 503);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).restarts(5).env();
    TestRows.source(env, count, 1_500, BUCKETS).sinkTo(sink);
    env.execute("uc outage");

    assertExactlyInCatalog("main.default.outage", count);
    assertThat(server.faults().calls(UPDATE_TABLE))
        .isGreaterThanOrEqualTo(8 + (int) server.latestVersion("main.default.outage"));
  }

  @Test
  void aCommitTheCatalogDoesNotAnswerIsAbandonedAtTheCheckpointTimeoutAndSettledOnce(
      @org.apache.flink.test.junit5.InjectMiniCluster
          org.apache.flink.runtime.minicluster.MiniCluster cluster)
      throws Exception {
    long count = 1_500;
    DeltaSink sink = sink("main.default.hung");
    // Commit calls hang for 15 s, then are applied: they land after the job gave up on them.
    server.faults().delay(UPDATE_TABLE, java.time.Duration.ofSeconds(15));
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).restarts(5).env();
    env.getCheckpointConfig().setCheckpointTimeout(1_500);
    TestRows.source(env, count, 1_500, BUCKETS).sinkTo(sink);
    var job = env.executeAsync("uc hung commit");
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (server.faults().calls(UPDATE_TABLE) == 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(server.faults().calls(UPDATE_TABLE)).isPositive();
    Thread.sleep(4_000);
    server.faults().clear();
    job.getJobExecutionResult().get();

    assertExactlyInCatalog("main.default.hung", count);
    // The hung commit held the committer until checkpoints timed out: the job failed over, and
    // the committer runs in a later attempt.
    var graph = cluster.getArchivedExecutionGraph(job.getJobID()).get();
    assertThat(graph.getAllExecutionVertices())
        .filteredOn(v -> v.getTaskNameWithSubtaskIndex().startsWith("Sink: Committer"))
        .isNotEmpty()
        .allMatch(v -> v.getCurrentExecutionAttempt().getAttemptNumber() > 0);
    // The abandoned call and its retry after the failover both reached the catalog.
    assertThat((long) server.faults().calls(UPDATE_TABLE))
        .isGreaterThan(server.latestVersion("main.default.hung"));
  }

  @Test
  void theTokenNeverReachesLogsOrErrors() throws Exception {
    String wrongToken = "wrong-secret-" + java.util.UUID.randomUUID();
    String logs;
    try (LogCapture capture = new LogCapture()) {
      StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
      TestRows.source(env, 1_000, 2_000, BUCKETS)
          .map(new FailingMapper(injected, 1, 300))
          .sinkTo(sink("main.default.secret"));
      env.execute("token in logs");
      assertThatThrownBy(
              () ->
                  DeltaSink.builder()
                      .unityCatalog(new UnityCatalogConnection(server.uri(), Secret.of(wrongToken)))
                      .tableName("main.default.other")
                      .rowType(TestRows.TYPE)
                      .build())
          .satisfies(e -> assertThat(stackTrace(e)).doesNotContain(wrongToken));
      logs = capture.text();
    }
    assertThat(logs).contains("Committed main.default.secret");
    assertThat(logs).doesNotContain(TOKEN).doesNotContain(wrongToken);
    assertThat(connection.toString()).doesNotContain(TOKEN);
  }

  private static String stackTrace(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }

  @Test
  void wrongTokenFailsAtBuildTime() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .unityCatalog(new UnityCatalogConnection(server.uri(), Secret.of("wrong")))
                    .tableName("main.default.t")
                    .rowType(TestRows.TYPE)
                    .build())
        .hasMessageContaining("HTTP 403")
        .hasMessageContaining("token")
        .satisfies(e -> assertThat(e.toString()).doesNotContain("wrong\""));
  }

  @Test
  void aCatalogThatDoesNotAnswerFailsTheLookupAfterTheRequestTimeout() {
    server.faults().delay("GET /tables/{full_name}", java.time.Duration.ofSeconds(3));
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .unityCatalog(connection.withRequestTimeout(java.time.Duration.ofMillis(400)))
                    .tableName("main.default.slow")
                    .rowType(TestRows.TYPE)
                    .build())
        .hasMessageContaining("Unity Catalog at " + server.uri())
        .hasMessageContaining("main.default.slow")
        .hasMessageContaining("did not answer within the request timeout of 400 ms");
  }

  @Test
  void aTokenThatMayOnlyReadFailsWhenTheJobIsBuiltNotAtTheFirstCommit() throws Exception {
    sink("main.default.guarded");
    UnityCatalogConnection reader =
        new UnityCatalogConnection(server.uri(), Secret.of(READ_ONLY_TOKEN));
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .unityCatalog(reader)
                    .tableName("main.default.guarded")
                    .rowType(TestRows.TYPE)
                    .partitionColumns("bucket")
                    .build())
        .hasMessageContaining("lets this connection read main.default.guarded but not write it")
        .hasMessageContaining("MODIFY")
        .satisfies(e -> assertThat(stackTrace(e)).doesNotContain(READ_ONLY_TOKEN));
    assertThat(server.faults().calls(UPDATE_TABLE)).isZero();
    assertThat(server.latestVersion("main.default.guarded")).isZero();
  }

  @Test
  void unknownSchemaIsNamed() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .unityCatalog(connection)
                    .tableName("main.nope.t")
                    .rowType(TestRows.TYPE)
                    .build())
        .hasMessageContaining("main.nope.t");
  }

  private DeltaSink sink(String table) {
    return DeltaSink.builder()
        .unityCatalog(connection)
        .tableName(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }

  private void assertExactlyInCatalog(String name, long count) {
    CatalogReads.Read read = CatalogReads.read(connection, name);
    assertThat(read.rows()).hasSize((int) count);
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
    // The catalog ratified every version the table has, without gaps.
    assertThat(server.latestVersion(name)).isEqualTo(read.version());
  }
}
