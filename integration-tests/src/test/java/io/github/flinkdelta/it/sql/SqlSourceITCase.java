/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code SELECT} from Delta tables in Flink SQL: on a path, in Unity Catalog, bounded and not. */
@Tag("smoke")
class SqlSourceITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token("t0k"));

  @TempDir Path dir;

  @Test
  void aBatchQueryReadsOnlyTheColumnsItUsesAndReturnsTheTableRows() throws Exception {
    TableEnvironment sql = batch();
    sql.executeSql(events("events", dir.resolve("events").toUri().toString(), ""));
    sql.executeSql(
            "INSERT INTO events VALUES (1, 0, 'a'), (2, 1, 'b'), (3, 1, CAST(NULL AS STRING)),"
                + " (4, 2, 'd')")
        .await();

    String query = "SELECT payload FROM events WHERE bucket = 1";
    assertThat(sql.explainSql(query))
        .as("the scan reads payload and bucket only")
        .containsPattern("project=\\[(payload, bucket|bucket, payload)\\]\\]\\]");
    assertThat(rows(sql, query))
        .containsExactlyInAnyOrder(Arrays.asList("b"), Arrays.asList((Object) null));
    assertThat(rows(sql, "SELECT COUNT(*) FROM events")).containsExactly(List.of(4L));
    assertThat(sql.explainSql("SELECT id FROM events WHERE id > 2 AND bucket <> 2"))
        .as("the filters reach the scan")
        .contains("filter=[");
    assertThat(rows(sql, "SELECT id FROM events WHERE id > 2 AND bucket <> 2"))
        .containsExactly(List.of(3L));
    assertThat(rows(sql, "SELECT id FROM events WHERE payload IS NULL OR id < 2"))
        .containsExactlyInAnyOrder(List.of(1L), List.of(3L));
    assertThat(rows(sql, "SELECT id FROM events LIMIT 2")).hasSize(2);
  }

  @Test
  void aStreamingQueryEmitsTheRowsOfEachNewVersion() throws Exception {
    String path = dir.resolve("stream").toUri().toString();
    TableEnvironment writer = batch();
    writer.executeSql(events("events", path, ""));
    writer.executeSql("INSERT INTO events VALUES (1, 0, 'a'), (2, 1, 'b')").await();

    StreamTableEnvironment reader =
        StreamTableEnvironment.create(FLINK.job().checkpointEveryMillis(200).env());
    reader.executeSql(events("events", path, ", 'scan.poll-interval' = '100 ms'"));
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<Row> it =
        reader.executeSql("SELECT id, payload FROM events").collect()) {
      read.add(values(it.next()));
      read.add(values(it.next()));
      writer.executeSql("INSERT INTO events VALUES (3, 2, 'c')").await();
      writer.executeSql("INSERT INTO events VALUES (4, 0, 'd'), (5, 1, 'e')").await();
      for (int i = 0; i < 3; i++) {
        read.add(values(it.next()));
      }
    }

    assertThat(read)
        .containsExactlyInAnyOrder(
            List.of(1L, "a"),
            List.of(2L, "b"),
            List.of(3L, "c"),
            List.of(4L, "d"),
            List.of(5L, "e"));
  }

  @Test
  void aQueryReadsAUnityCatalogManagedTable() throws Exception {
    UnityCatalogServer server = catalog.server();
    TableEnvironment sql = batch();
    sql.executeSql(
        "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + server.uri()
            + "', 'uc.token' = 't0k', 'catalog' = 'main')");
    sql.executeSql(
        "CREATE TABLE uc.`default`.events (id BIGINT NOT NULL, bucket INT, payload STRING)"
            + " PARTITIONED BY (bucket)");
    sql.executeSql("INSERT INTO uc.`default`.events VALUES (1, 0, 'a'), (2, 1, 'b'), (3, 0, 'c')")
        .await();
    sql.executeSql("INSERT INTO uc.`default`.events VALUES (4, 1, 'd')").await();

    assertThat(rows(sql, "SELECT id, bucket, payload FROM uc.`default`.events"))
        .containsExactlyInAnyOrder(
            List.of(1L, 0, "a"), List.of(2L, 1, "b"), List.of(3L, 0, "c"), List.of(4L, 1, "d"));
    assertThat(
            rows(
                sql,
                "SELECT id FROM uc.`default`.events /*+ OPTIONS('scan.startup.mode' = 'VERSION',"
                    + " 'scan.startup.version' = '1') */"))
        .as("time travel to the first insert")
        .containsExactlyInAnyOrder(List.of(1L), List.of(2L), List.of(3L));
  }

  @Test
  void aWindowOnTheSourcesWatermarksCountsEveryRowOfATableWrittenOutOfTimeOrder() throws Exception {
    String path = dir.resolve("clicks").toUri().toString();
    TableEnvironment writer = batch();
    writer.executeSql(
        "CREATE TABLE clicks (id BIGINT NOT NULL, clicked_at TIMESTAMP_LTZ(6)) WITH ('connector' ="
            + " 'delta', 'table-path' = '"
            + path
            + "')");
    // One version per minute, the minutes out of order; minute m holds m + 1 rows.
    int[] minutes = {5, 1, 7, 3, 0, 6, 2, 4};
    for (int minute : minutes) {
      StringBuilder values = new StringBuilder();
      for (int i = 0; i <= minute; i++) {
        values
            .append(i == 0 ? "" : ", ")
            .append(
                String.format(
                    "(%d, TO_TIMESTAMP_LTZ(%d, 3))",
                    minute * 100 + i, 1_700_000_040_000L + minute * 60_000L + i * 1_000L + 123));
      }
      writer.executeSql("INSERT INTO clicks VALUES " + values).await();
    }

    StreamTableEnvironment reader = StreamTableEnvironment.create(FLINK.job().env());
    reader.executeSql(
        "CREATE TABLE timed (id BIGINT NOT NULL, clicked_at TIMESTAMP_LTZ(3),"
            + " WATERMARK FOR clicked_at AS SOURCE_WATERMARK()) WITH ('connector' = 'delta',"
            + " 'table-path' = '"
            + path
            + "', 'scan.mode' = 'bounded')");
    List<List<Object>> counts =
        rows(
            reader,
            "SELECT CAST(window_start AS STRING), COUNT(*) FROM TABLE(TUMBLE(TABLE timed,"
                + " DESCRIPTOR(clicked_at), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end");

    assertThat(counts.stream().map(row -> (Long) row.get(1)))
        .as("rows per minute: none dropped as late")
        .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
  }

  @Test
  void aDeclaredTypeTheTableDoesNotHoldOrAWatermarkOnAComputedColumnIsRefusedNamingTheColumn()
      throws Exception {
    String path = dir.resolve("typed").toUri().toString();
    TableEnvironment sql = batch();
    sql.executeSql(events("events", path, ""));
    sql.executeSql("INSERT INTO events VALUES (1, 0, 'a')").await();
    sql.executeSql(
        "CREATE TABLE narrow (id INT, payload STRING) WITH ('connector' = 'delta', 'table-path' = '"
            + path
            + "')");

    assertThatThrownBy(() -> sql.executeSql("SELECT id FROM narrow").await())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'id' as INT")
        .hasMessageContaining("holds BIGINT");

    TableEnvironment streaming = StreamTableEnvironment.create(FLINK.job().env());
    streaming.executeSql(
        "CREATE TABLE timed (id BIGINT NOT NULL, payload STRING, t AS TO_TIMESTAMP_LTZ(id, 3),"
            + " WATERMARK FOR t AS SOURCE_WATERMARK()) WITH ('connector' = 'delta', 'table-path'"
            + " = '"
            + path
            + "')");
    assertThatThrownBy(() -> streaming.explainSql("SELECT id FROM timed"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("SOURCE_WATERMARK() for 't'")
        .hasMessageContaining("not one of the Delta table's columns");
  }

  private static String events(String name, String path, String moreOptions) {
    return "CREATE TABLE "
        + name
        + " (id BIGINT NOT NULL, bucket INT, payload STRING) PARTITIONED BY (bucket) WITH"
        + " ('connector' = 'delta', 'table-path' = '"
        + path
        + "'"
        + moreOptions
        + ")";
  }

  private static TableEnvironment batch() {
    return TableEnvironment.create(EnvironmentSettings.inBatchMode());
  }

  private static List<List<Object>> rows(TableEnvironment sql, String query) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
      it.forEachRemaining(row -> rows.add(values(row)));
    }
    return rows;
  }

  private static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.getArity(); i++) {
      values.add(row.getField(i));
    }
    return values;
  }
}
