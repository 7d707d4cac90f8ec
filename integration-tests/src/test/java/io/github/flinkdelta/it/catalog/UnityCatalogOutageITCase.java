/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A catalog that is briefly unavailable when a job's tasks start does not cost the job a restart:
 * the commit API is decided once, when the sink is built, and travels with it, and what tasks must
 * ask the catalog at start is retried until the catalog answers again. Each job here runs without
 * restarts, so any task failure fails the test.
 */
class UnityCatalogOutageITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String PROBE = "GET /delta/v1/config";
  private static final String LOAD =
      "GET /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
  private static final String COMMIT =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";

  @RegisterExtension final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension();

  @Test
  void tasksUseTheCommitApiDecidedAtBuildWithoutProbing() throws Exception {
    UnityCatalogServer server = catalog.server();
    DeltaSink sink = sink(server, "main.default.probed_once");
    int probesAtBuild = server.faults().calls(PROBE);
    assertThat(probesAtBuild).isPositive();
    // From now on the probe fails: a task that asked would fall back or fail.
    server.faults().failNext(PROBE, 10_000, 503);

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, 2_000, 4_000, 3).sinkTo(sink);
    env.execute("no probes from tasks");

    assertThat(server.faults().calls(PROBE)).isEqualTo(probesAtBuild);
    assertThat(server.faults().calls(COMMIT)).isPositive();
    assertThat(server.faults().calls("POST /delta/preview/commits")).isZero();
    assertThat(CatalogReads.rows(connection(server), "main.default.probed_once"))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(2_000, 3));
  }

  @Test
  void aShortOutageWhenTheCommitterStartsIsWaitedOut() throws Exception {
    UnityCatalogServer server = catalog.server();
    DeltaSink sink = sink(server, "main.default.waited");
    int loads = server.faults().calls(LOAD);
    // More failures than the catalog client retries within one call: without waiting, the
    // committer's first snapshot load fails its task.
    int outage = 12;
    server.faults().failNext(LOAD, outage, 503);

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, 2_000, 4_000, 3).sinkTo(sink);
    env.execute("outage at start");

    assertThat(server.faults().calls(LOAD) - loads).isGreaterThan(outage);
    assertThat(CatalogReads.rows(connection(server), "main.default.waited"))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(2_000, 3));
  }

  private static DeltaSink sink(UnityCatalogServer server, String table) {
    return DeltaSink.builder()
        .unityCatalog(connection(server))
        .tableName(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }

  private static UnityCatalogConnection connection(UnityCatalogServer server) {
    return new UnityCatalogConnection(server.uri(), Secret.of(""));
  }
}
