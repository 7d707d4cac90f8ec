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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code 'connector' = 'delta'} from Flink SQL, on a path table and on a Unity Catalog table. */
@Tag("smoke")
class SqlConnectorITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token("t0k"));

  @Test
  void insertIntoAPathTable() throws Exception {
    String path = dir.resolve("sql-path").toUri().toString();
    StreamTableEnvironment sql = sql();
    sql.executeSql(
        "CREATE TABLE events (id BIGINT NOT NULL, bucket INT, payload STRING)"
            + " PARTITIONED BY (bucket) WITH ('connector' = 'delta', 'table-path' = '"
            + path
            + "', 'sink.parquet.compression' = 'ZSTD')");
    sql.executeSql(
            "INSERT INTO events VALUES (1, 0, 'a'), (2, 1, 'b'), (3, 0, CAST(NULL AS STRING))")
        .await();

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(
            java.util.Arrays.asList(1L, 0, "a"),
            java.util.Arrays.asList(2L, 1, "b"),
            java.util.Arrays.asList(3L, 0, null));
    // Every column chunk of every data file says ZSTD in its footer.
    java.util.List<Path> files;
    try (var walk = java.nio.file.Files.walk(dir.resolve("sql-path"))) {
      files = walk.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
    assertThat(files).hasSize(2).allMatch(p -> p.toString().endsWith(".zstd.parquet"));
    for (Path file : files) {
      try (var reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(
              org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
                  new org.apache.hadoop.fs.Path(file.toUri()),
                  new org.apache.hadoop.conf.Configuration(false)))) {
        assertThat(reader.getFooter().getBlocks())
            .isNotEmpty()
            .flatMap(org.apache.parquet.hadoop.metadata.BlockMetaData::getColumns)
            .extracting(org.apache.parquet.hadoop.metadata.ColumnChunkMetaData::getCodec)
            .containsOnly(org.apache.parquet.hadoop.metadata.CompressionCodecName.ZSTD);
      }
    }
  }

  @Test
  void insertIntoAUnityCatalogTable() throws Exception {
    UnityCatalogServer server = catalog.server();
    StreamTableEnvironment sql = sql();
    sql.executeSql(
        "CREATE TABLE events (id BIGINT NOT NULL, bucket INT, payload STRING)"
            + " WITH ('connector' = 'delta', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'uc.table' = 'main.default.sql_events')");
    sql.executeSql("INSERT INTO events VALUES (1, 0, 'a'), (2, 1, 'b')").await();

    CatalogReads.Read read =
        CatalogReads.read(
            new UnityCatalogConnection(server.uri(), Secret.of("t0k")), "main.default.sql_events");
    assertThat(read.rows()).containsExactlyInAnyOrder(List.of(1L, 0, "a"), List.of(2L, 1, "b"));
    // The rows commit in one or two checkpoints, each a version the catalog registered.
    assertThat(read.version())
        .isBetween(1L, 2L)
        .isEqualTo(server.latestVersion("main.default.sql_events"));
  }

  @Test
  void aBatchStatementSetWritesAPathTableAndAUnityCatalogTableInOneJob() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    String path = dir.resolve("batch-path").toUri().toString();
    sql.executeSql(
        "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2000',"
            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '2000')");
    sql.executeSql(
        "CREATE TABLE on_path (id BIGINT, parity INT) PARTITIONED BY (parity) WITH"
            + " ('connector' = 'delta', 'table-path' = '"
            + path
            + "')");
    sql.executeSql(
        "CREATE TABLE in_catalog (id BIGINT, square BIGINT) WITH ('connector' = 'delta',"
            + " 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'uc.table' = 'main.default.batch_squares')");
    StatementSet set = sql.createStatementSet();
    set.addInsertSql("INSERT INTO on_path SELECT id, CAST(MOD(id, 2) AS INT) FROM ids");
    set.addInsertSql("INSERT INTO in_catalog SELECT id, id * id FROM ids WHERE id <= 1000");
    TableResult result = set.execute();
    result.await();

    List<List<Object>> evensAndOdds = new ArrayList<>();
    List<List<Object>> squares = new ArrayList<>();
    for (long id = 1; id <= 2000; id++) {
      evensAndOdds.add(List.of(id, (int) (id % 2)));
      if (id <= 1000) {
        squares.add(List.of(id, id * id));
      }
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(evensAndOdds);
    assertThat(DeltaTableReader.version(path)).isEqualTo(1);
    assertThat(
            CatalogReads.rows(
                new UnityCatalogConnection(server.uri(), Secret.of("t0k")),
                "main.default.batch_squares"))
        .containsExactlyInAnyOrderElementsOf(squares);
    assertThat(server.latestVersion("main.default.batch_squares")).isEqualTo(1);
    // One statement set is one Flink job.
    assertThat(result.getJobClient()).isPresent();
  }

  @Test
  void theRequestTimeoutOptionBoundsCatalogCalls() throws Exception {
    UnityCatalogServer server = catalog.server();
    server.faults().delay("GET /tables/{full_name}", java.time.Duration.ofSeconds(3));
    StreamTableEnvironment sql = sql();
    sql.executeSql(
        "CREATE TABLE slow (id BIGINT) WITH ('connector' = 'delta', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'uc.table' = 'main.default.slow',"
            + " 'uc.request-timeout' = '300 ms')");
    assertThatThrownBy(() -> sql.executeSql("INSERT INTO slow VALUES (1)").await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("did not answer within the request timeout of 300 ms"));
  }

  @Test
  void aMisspelledOptionFailsListingTheValidOnes() {
    StreamTableEnvironment sql = sql();
    sql.executeSql(
        "CREATE TABLE bad (id BIGINT) WITH ('connector' = 'delta', 'table-path' = '"
            + dir.resolve("bad").toUri()
            + "', 'sink.rolling.target-fil-size' = '1mb')");
    assertThatThrownBy(() -> sql.executeSql("INSERT INTO bad VALUES (1)").await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("sink.rolling.target-fil-size")
                    .contains("sink.rolling.target-file-size"));
  }

  private static StreamTableEnvironment sql() {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).parallelism(1).env();
    return StreamTableEnvironment.create(env);
  }
}
