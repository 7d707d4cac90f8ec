/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Options that reach the sink by the less travelled SQL paths: a {@code sink.*} hint on a catalog
 * table, the Delta checkpoint interval and OAuth on a {@code 'connector' = 'delta'} table, and a
 * Unity Catalog table that may not be created.
 */
class SqlOptionPathsITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String CLIENT_SECRET = "sql-oauth-secret";

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(
          uc -> uc.token("t0k").oauthClient("sql-job", CLIENT_SECRET, Duration.ofMinutes(5)));

  @Test
  void aSinkHintOnACatalogTableSetsWhatItSays() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'catalog' = 'main')");
    sql.executeSql("CREATE TABLE uc.`default`.hinted (id BIGINT, region STRING)");
    sql.executeSql(
            "INSERT INTO uc.`default`.hinted /*+ OPTIONS('sink.parquet.compression' = 'GZIP') */"
                + " VALUES (1, 'eu'), (2, 'us'), (3, 'eu')")
        .await();

    assertThat(CatalogReads.rows(connection(server), "main.default.hinted"))
        .containsExactlyInAnyOrder(List.of(1L, "eu"), List.of(2L, "us"), List.of(3L, "eu"));
    List<Path> files = dataFiles(catalog.storageRoot());
    assertThat(files).isNotEmpty().allMatch(f -> f.toString().endsWith(".gzip.parquet"));
    for (Path file : files) {
      assertThat(codecs(file)).containsOnly(CompressionCodecName.GZIP);
    }
  }

  @Test
  void theDeltaCheckpointIntervalOptionSetsWhichVersionsAreCheckpointed() throws Exception {
    String path = dir.resolve("checkpointed").toUri().toString();
    StreamTableEnvironment sql =
        StreamTableEnvironment.create(FLINK.job().checkpointEveryMillis(100).env());
    sql.executeSql(
        "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '2000', 'rows-per-second' = '400')");
    sql.executeSql(
        "CREATE TABLE t (id BIGINT) WITH ('connector' = 'delta', 'table-path' = '"
            + path
            + "', 'sink.delta-checkpoint.interval' = '2')");
    sql.executeSql("INSERT INTO t SELECT id FROM gen").await();

    long latest = DeltaTableReader.version(path);
    List<Long> checkpoints = new ArrayList<>();
    try (Stream<Path> log = Files.list(dir.resolve("checkpointed/_delta_log"))) {
      log.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".checkpoint.parquet"))
          .forEach(n -> checkpoints.add(Long.parseLong(n.substring(0, 20))));
    }
    assertThat(latest).isGreaterThanOrEqualTo(4);
    assertThat(checkpoints).isNotEmpty().allMatch(v -> v % 2 == 0 && v <= latest);
    assertThat(DeltaTableReader.readAll(path)).hasSize(2_000);
  }

  @Test
  void oauthOptionsOnADeltaTableAuthenticateTheJob() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE t (id BIGINT) WITH ('connector' = 'delta', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.table' = 'main.default.oauth_sql', 'uc.oauth.token-uri' = '"
            + server.oauthTokenUri()
            + "', 'uc.oauth.client-id' = 'sql-job', 'uc.oauth.client-secret' = '"
            + CLIENT_SECRET
            + "', 'uc.oauth.scope' = 'all-apis')");
    sql.executeSql("INSERT INTO t VALUES (1), (2)").await();

    assertThat(CatalogReads.rows(connection(server), "main.default.oauth_sql"))
        .containsExactlyInAnyOrder(List.of(1L), List.of(2L));
    assertThat(server.oauthTokensIssued()).isPositive();
  }

  @Test
  void aMissingUnityCatalogTableThatMayNotBeCreatedIsAnErrorNamingIt() {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    sql.executeSql(
        "CREATE TABLE t (id BIGINT) WITH ('connector' = 'delta', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'uc.table' = 'main.default.absent',"
            + " 'sink.create-if-missing' = 'false')");

    assertThatThrownBy(() -> sql.executeSql("INSERT INTO t VALUES (1)").await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("main.default.absent")
                    .contains(server.uri().toString().replaceAll("/$", ""))
                    .contains("'sink.create-if-missing'"));
    assertThat(server.latestVersion("main.default.absent")).isEqualTo(-1);
    assertThat(
            server
                .faults()
                .calls("POST /delta/v1/catalogs/{catalog}/schemas/{schema}/staging-tables"))
        .isZero();
  }

  private static UnityCatalogConnection connection(UnityCatalogServer server) {
    return new UnityCatalogConnection(server.uri(), Secret.of("t0k"));
  }

  private static List<Path> dataFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log"))
          .toList();
    }
  }

  private static List<CompressionCodecName> codecs(Path file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
      return reader.getFooter().getBlocks().stream()
          .map(BlockMetaData::getColumns)
          .flatMap(List::stream)
          .map(ColumnChunkMetaData::getCodec)
          .toList();
    }
  }
}
