package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code 'connector' = 'delta'} from Flink SQL, on a path table and on a Unity Catalog table. */
class SqlConnectorITCase {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.extension();

  @TempDir Path dir;

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
    assertThat(
            java.nio.file.Files.walk(dir.resolve("sql-path"))
                .anyMatch(p -> p.toString().endsWith(".zstd.parquet")))
        .isTrue();
  }

  @Test
  void insertIntoAUnityCatalogTable() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir.resolve("uc")).token("t0k").build().start()) {
      StreamTableEnvironment sql = sql();
      sql.executeSql(
          "CREATE TABLE events (id BIGINT NOT NULL, bucket INT, payload STRING)"
              + " WITH ('connector' = 'delta', 'uc.uri' = '"
              + server.uri()
              + "', 'uc.token' = 't0k', 'uc.table' = 'main.default.sql_events')");
      sql.executeSql("INSERT INTO events VALUES (1, 0, 'a'), (2, 1, 'b')").await();

      List<List<Object>> rows =
          CatalogReads.rows(
              new UnityCatalogConnection(server.uri(), Secret.of("t0k")),
              "main.default.sql_events");
      assertThat(rows).containsExactlyInAnyOrder(List.of(1L, 0, "a"), List.of(2L, 1, "b"));
      assertThat(server.latestVersion("main.default.sql_events")).isEqualTo(1);
    }
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
    StreamExecutionEnvironment env = MiniClusters.env(200, 0, 1);
    return StreamTableEnvironment.create(env);
  }
}
