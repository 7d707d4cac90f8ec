/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Unity Catalog managed table, created and appended to through Kernel's catalog committer against
 * the test server over HTTP: every version is ratified by the catalog and published.
 */
class ManagedTableCommitTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new IntType(), new VarCharType(100)},
          new String[] {"id", "bucket", "payload"});

  @TempDir Path dir;

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest(name = "{0} against a server {1} the UC Delta API")
  @CsvSource({
    "DELTA_V1, with, /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}",
    "LEGACY, with, /delta/preview/commits",
    "AUTO, with, /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}",
    "AUTO, without, /delta/preview/commits"
  })
  void appendsAreRatifiedByTheCatalogAndPublished(
      UnityCatalogConnection.CommitApi api, String deltaApi, String commitPath) throws Exception {
    server =
        UnityCatalogServer.builder()
            .storageRoot(dir.resolve("storage"))
            .deltaApi(deltaApi.equals("with"))
            .build()
            .start();
    connection =
        new UnityCatalogConnection(
            server.uri(), new UnityCatalogConnection.StaticToken(Secret.of("any-token")), api);
    var conf = HadoopConfigurations.of(Map.of());
    UnityCatalogTableName name = UnityCatalogTableName.parse("main.default.events");
    UnityCatalogTable table;
    try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
      assertThat(client.find(name)).isEmpty();
      table =
          client.createManagedTable(
              conf, name, DeltaTypes.toDeltaSchema(TYPE), List.of("bucket"), Map.of());
      assertThat(client.find(name)).contains(table);
    }

    List<RowData> expected = new ArrayList<>();
    try (DeltaTable delta =
        DeltaTable.open(TableRequest.of(new UnityCatalogTableLocator(connection, table), conf))) {
      // More commits than the catalog keeps unbackfilled: publishing after each keeps it going.
      for (long checkpoint = 1; checkpoint <= 12; checkpoint++) {
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          long id = checkpoint * 100 + i;
          rows.add(GenericRowData.of(id, i % 2, StringData.fromString("row " + id)));
        }
        delta.commit("app", checkpoint, write(delta, rows, "part-" + checkpoint));
        expected.addAll(rows);
      }
      assertThat(delta.transactionVersion("app")).isEqualTo(12);
      // A replayed checkpoint is recognised by its transaction id.
      assertThat(delta.commit("app", 12, List.of()))
          .isInstanceOf(CommitOutcome.AlreadyCommitted.class);
    }

    assertThat(server.latestVersion("main.default.events")).isEqualTo(12);
    // Every version was ratified through the expected API.
    assertThat(server.faults().calls("POST " + commitPath)).isGreaterThanOrEqualTo(12);
    Path log = Path.of(URI.create(table.location())).resolve("_delta_log");
    assertThat(Files.exists(log.resolve(String.format("%020d.json", 12)))).isTrue();
    try (DeltaTable reread =
        DeltaTable.open(TableRequest.of(new UnityCatalogTableLocator(connection, table), conf))) {
      assertThat(DeltaTableReader.read(DefaultEngine.create(conf), reread.snapshot()))
          .containsExactlyInAnyOrderElementsOf(
              expected.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());
    }
  }

  private static DataFiles write(DeltaTable table, List<RowData> rows, String prefix)
      throws Exception {
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of("bucket")),
            HadoopConfigurations.of(Map.of()),
            table.snapshot().getPath(),
            FileWriteOptions.from(new Configuration()),
            prefix)) {
      for (RowData row : rows) {
        writer.write(row);
      }
      return writer.flush();
    }
  }
}
