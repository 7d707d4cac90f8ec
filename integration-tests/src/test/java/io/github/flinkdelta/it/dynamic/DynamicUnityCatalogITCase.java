/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The dynamic sink on Unity Catalog: managed tables created through the catalog as their first rows
 * arrive (uc-testkit over HTTP, storage on local disk), every version ratified by it, each table
 * exactly once through failures, one of them inside the checkpoint that created a table.
 */
class DynamicUnityCatalogITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);
  private final FaultCounter generatorFaults = FaultCounter.in(shared);

  private static final int BUCKETS = 4;
  private static final String TOKEN = "uc-test-token";

  private static final String READ_ONLY_TOKEN = "read-only-" + java.util.UUID.randomUUID();

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN).readOnlyToken(READ_ONLY_TOKEN));

  @Test
  void tablesInASchemaTheCatalogLacksCreateItWhereThePrincipalMayAndNameWhatToGrantWhereNot()
      throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    SpreadRows rows = new SpreadRows("", 2, 0, BUCKETS);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    TestRows.source(env, 500, 2_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(rows)
                .unityCatalog(connection)
                .defaultNamespace("main.fresh")
                .build());
    env.execute("tables in a new schema");
    rows.expected(500)
        .forEach(
            (table, expected) ->
                assertThat(CatalogReads.rows(connection, "main.fresh." + table))
                    .containsExactlyInAnyOrderElementsOf(expected));

    StreamExecutionEnvironment readOnly = FLINK.job().checkpointEveryMillis(100).env();
    TestRows.source(readOnly, 100, 2_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(rows)
                .unityCatalog(new UnityCatalogConnection(server.uri(), Secret.of(READ_ONLY_TOKEN)))
                .defaultNamespace("main.forbidden")
                .build());
    assertThatThrownBy(() -> readOnly.execute("a schema the principal may not create"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("refused to create schema main.forbidden")
                    .contains("CREATE SCHEMA")
                    .doesNotContain(READ_ONLY_TOKEN));
  }

  @Test
  void managedTablesAreCreatedOnTheFlyAndWrittenExactlyOnce() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    long count = 6_000;
    int tables = 4;
    long firstLate = count / 4;
    while (!new RoutedRows("", tables, count, -1, generatorFaults)
        .table(firstLate)
        .equals("late")) {
      firstLate++;
    }
    RoutedRows routes = new RoutedRows("", tables, count, firstLate, generatorFaults);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .map(FailingMapper.untilFired(injected, 1, 1_000))
        .sinkTo(
            DeltaSink.dynamic(routes)
                .unityCatalog(connection)
                .defaultNamespace("main.default")
                .build());
    env.execute("dynamic sink on unity catalog");

    assertThat(injected.count()).isGreaterThanOrEqualTo(1);
    assertThat(generatorFaults.count()).isEqualTo(1);
    Map<String, List<List<Object>>> expected = routes.expected(count, BUCKETS);
    assertThat(expected).hasSize(tables + 1);
    expected.forEach(
        (table, rows) -> {
          String name = "main.default." + table;
          assertThat(CatalogReads.table(connection, name).managed())
              .as("%s managed", name)
              .isTrue();
          CatalogReads.Read read = CatalogReads.read(connection, name);
          assertThat(read.rows())
              .as("rows of %s", name)
              .hasSize(rows.size())
              .containsExactlyInAnyOrderElementsOf(rows);
          // The catalog ratified every version the table has.
          assertThat(server.latestVersion(name)).isEqualTo(read.version());
        });
  }
}
