/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.maintenance.TableMaintenanceCommand;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone maintenance command as a bounded Flink job: it compacts path tables and every
 * table of a Unity Catalog schema (through catalog commits) keeping their exact rows, lists and
 * then deletes what a vacuum may delete on a path table, and reports a catalog-managed table it
 * refuses to vacuum as failed while the other tables go on.
 */
class TableMaintenanceITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 3;
  private static final String TOKEN = "uc-test-token";
  private static final long ROWS = 1_500;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir Path dir;

  @Test
  void compactsPathTablesAndEveryTableOfACatalogSchemaKeepingTheirRows() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    String first = path("first");
    String second = path("second");
    stream(pathSink(first));
    stream(pathSink(second));
    for (String table : List.of("main.default.clicks", "main.default.views")) {
      stream(
          DeltaSink.builder()
              .unityCatalog(connection)
              .tableName(table)
              .rowType(TestRows.TYPE)
              .partitionColumns("bucket")
              .build());
    }
    long filesBefore = DeltaTableReader.fileCount(first);
    long catalogVersion = server.latestVersion("main.default.clicks");

    List<String> lines = new ArrayList<>();
    List<String> failed =
        TableMaintenanceCommand.run(
            new String[] {
              "compact",
              first,
              second,
              "main.default.*",
              "--parallelism",
              "2",
              "--option",
              "uc.uri=" + server.uri(),
              "--option",
              "uc.token=" + TOKEN,
              "--option",
              "sink.compaction.min-input-files=2"
            },
            lines::add);

    assertThat(failed).isEmpty();
    assertThat(lines).hasSize(4).allSatisfy(line -> assertThat(line).contains(": compacted "));
    for (String table : List.of(first, second)) {
      TestRows.assertTableHoldsExactly(table, ROWS, BUCKETS);
      assertThat(DeltaTableReader.fileCount(table)).isEqualTo(BUCKETS);
    }
    assertThat(filesBefore).isGreaterThan(2L * BUCKETS);
    for (String table : List.of("main.default.clicks", "main.default.views")) {
      assertThat(CatalogReads.rows(connection, table))
          .containsExactlyInAnyOrderElementsOf(TestRows.expected(ROWS, BUCKETS));
    }
    assertThat(server.latestVersion("main.default.clicks")).isEqualTo(catalogVersion + 1);
  }

  @Test
  void vacuumListsThenDeletesOnAPathTableAndRefusesACatalogManagedOne() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    String table = path("t");
    // A vacuum keeps what versions within the retention removed, by the tombstones' deletion
    // times; a table that asks for one second lets the test see them expire without a clock of
    // its own.
    stream(
        DeltaSink.builder()
            .tablePath(table)
            .rowType(TestRows.TYPE)
            .partitionColumns("bucket")
            .tableProperty("delta.deletedFileRetentionDuration", "interval 1 second")
            .build());
    stream(
        DeltaSink.builder()
            .unityCatalog(connection)
            .tableName("main.default.managed")
            .rowType(TestRows.TYPE)
            .partitionColumns("bucket")
            .build());
    TableMaintenanceCommand.run(
        new String[] {"compact", table, "--option", "sink.compaction.min-input-files=2"},
        line -> {});
    long removed =
        DeltaLogFiles.versions(table).stream()
            .mapToLong(v -> DeltaLogFiles.actions(table, v, "remove").size())
            .sum();
    waitPastTheRetention(table);

    List<String> dryRun = new ArrayList<>();
    TableMaintenanceCommand.run(
        new String[] {"vacuum", table, "--dry-run", "--retention", "1s"}, dryRun::add);
    List<String> lines = new ArrayList<>();
    List<String> failed =
        TableMaintenanceCommand.run(
            new String[] {
              "vacuum",
              table,
              "main.default.managed",
              "--retention",
              "1s",
              "--option",
              "uc.uri=" + server.uri(),
              "--option",
              "uc.token=" + TOKEN
            },
            lines::add);

    assertThat(String.join("\n", dryRun))
        .contains("would delete " + removed + " files")
        .contains(".parquet");
    assertThat(lines)
        .anySatisfy(line -> assertThat(line).startsWith(table + ": deleted " + removed + " files"));
    assertThat(failed)
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith("FAILED main.default.managed")
                    .contains("catalog-managed"));
    TestRows.assertTableHoldsExactly(table, ROWS, BUCKETS);
    assertThat(CatalogReads.rows(connection, "main.default.managed")).hasSize((int) ROWS);
  }

  private String path(String name) {
    return dir.resolve(name).toUri().toString();
  }

  private static DeltaSink pathSink(String table) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }

  private static void stream(DeltaSink sink) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    TestRows.source(env, ROWS, 2_000, BUCKETS).sinkTo(sink);
    env.execute("rows for maintenance");
  }

  /** Waits until the newest file under the table's directory is more than a second old. */
  private static void waitPastTheRetention(String table) throws Exception {
    Path root = Path.of(java.net.URI.create(table));
    long newest;
    try (Stream<Path> files = Files.walk(root)) {
      newest =
          files
              .filter(Files::isRegularFile)
              .mapToLong(f -> f.toFile().lastModified())
              .max()
              .orElseThrow();
    }
    long due = Math.max(newest, System.currentTimeMillis()) + 1_100;
    while (System.currentTimeMillis() < due) {
      Thread.sleep(due - System.currentTimeMillis());
    }
  }
}
