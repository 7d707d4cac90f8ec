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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each write option group of {@code 'connector' = 'delta'} changes what it says. Every test writes
 * the same rows to a table with the option and to one without it, in one statement set, and
 * compares the tables' files; both must hold exactly the generated rows.
 */
class SqlWriteOptionsITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String UPDATE_TABLE =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token("t0k"));

  @Test
  void rollingClosesFilesByRowCountAndBySize() throws Exception {
    StreamTableEnvironment sql = sql(1);
    generator(sql, 1, 2_000);
    StatementSet set = sql.createStatementSet();
    set.addInsertSql(insert(sql, "by_rows", "", "'sink.rolling.max-rows-per-file' = '200'"));
    set.addInsertSql(insert(sql, "by_size", "", "'sink.rolling.target-file-size' = '8 kb'"));
    set.addInsertSql(insert(sql, "plain", "", ""));
    set.execute().await();

    assertRows("by_rows", 2_000, 1);
    assertRows("by_size", 2_000, 1);
    assertRows("plain", 2_000, 1);
    assertThat(DeltaTableReader.fileCount(path("by_rows"))).isEqualTo(10);
    assertThat(DeltaTableReader.fileCount(path("by_size"))).isGreaterThan(2);
    assertThat(DeltaTableReader.fileCount(path("plain"))).isEqualTo(1);
  }

  @Test
  void aSmallBufferBudgetClosesFilesEarlyWithoutLosingRows() throws Exception {
    int partitions = 120;
    StreamTableEnvironment sql = sql(1);
    generator(sql, partitions, 6_000);
    StatementSet set = sql.createStatementSet();
    set.addInsertSql(
        insert(sql, "budget", "PARTITIONED BY (bucket)", "'sink.writer.buffer-budget' = '64 kb'"));
    set.addInsertSql(insert(sql, "roomy", "PARTITIONED BY (bucket)", ""));
    set.execute().await();

    assertRows("budget", 6_000, partitions);
    assertRows("roomy", 6_000, partitions);
    // The rows held for 120 partitions exceed 64 KB: the writer completes files before the
    // checkpoint. With the default budget each partition's rows are held and written as one file.
    assertThat(DeltaTableReader.fileCount(path("budget"))).isGreaterThan(partitions);
    assertThat(DeltaTableReader.fileCount(path("roomy"))).isEqualTo(partitions);
  }

  @Test
  void hashDistributionGivesEachPartitionOneWriterSubtask() throws Exception {
    StreamTableEnvironment sql = sql(2);
    generator(sql, 6, 3_000);
    StatementSet set = sql.createStatementSet();
    set.addInsertSql(
        insert(sql, "hashed", "PARTITIONED BY (bucket)", "'sink.distribution' = 'hash'"));
    set.addInsertSql(insert(sql, "unkeyed", "PARTITIONED BY (bucket)", ""));
    set.execute().await();

    assertRows("hashed", 3_000, 6);
    assertRows("unkeyed", 3_000, 6);
    assertThat(writerSubtasksPerPartition("hashed").values()).allMatch(s -> s.size() == 1);
    assertThat(writerSubtasksPerPartition("unkeyed").values()).allMatch(s -> s.size() == 2);
  }

  @Test
  void sinkParallelismSetsTheNumberOfWriters() throws Exception {
    StreamTableEnvironment sql = sql(1);
    generator(sql, 1, 3_000);
    sql.executeSql(insert(sql, "wide", "", "'sink.parallelism' = '3'")).await();

    assertRows("wide", 3_000, 1);
    assertThat(writerSubtasks("wide")).containsExactlyInAnyOrder(0, 1, 2);
  }

  @Test
  void rowGroupAndPageSizesShapeTheParquetFiles() throws Exception {
    StreamTableEnvironment sql = sql(1);
    generator(sql, 1, 20_000);
    StatementSet set = sql.createStatementSet();
    set.addInsertSql(
        insert(
            sql,
            "small_groups",
            "",
            "'sink.parquet.row-group-size' = '64 kb', 'sink.parquet.page-size' = '4 kb'"));
    set.addInsertSql(insert(sql, "default_groups", "", ""));
    set.execute().await();

    assertRows("small_groups", 20_000, 1);
    assertRows("default_groups", 20_000, 1);
    ParquetShape small = parquetShape("small_groups");
    ParquetShape defaults = parquetShape("default_groups");
    // Each file is one row group by default; 64 KB row groups split them.
    assertThat(defaults.rowGroups()).isEqualTo(defaults.files());
    assertThat(small.rowGroups()).isGreaterThan(2 * small.files());
    // A row group holds one page of the default 1 MB; with 4 KB pages it holds several.
    assertThat(defaults.payloadPages()).isEqualTo(defaults.rowGroups());
    assertThat(small.payloadPages()).isGreaterThan(2L * small.rowGroups());
  }

  @Test
  void theAppIdNamesTheTransactionsAndIsNotReusedByAFreshJob() throws Exception {
    StreamTableEnvironment sql = sql(1);
    generator(sql, 1, 100);
    String options = "'sink.app-id' = 'orders-loader'";
    sql.executeSql(insert(sql, "named", "", options)).await();

    assertRows("named", 100, 1);
    try (Stream<Path> commits = Files.list(dir.resolve("named").resolve("_delta_log"))) {
      String log =
          commits
              .filter(p -> p.toString().endsWith(".json"))
              .map(SqlWriteOptionsITCase::read)
              .collect(Collectors.joining());
      assertThat(log).contains("\"appId\":\"orders-loader\"");
    }
    // A job without state under the same app id would skip checkpoint ids the table has seen.
    assertThatThrownBy(() -> sql.executeSql(gen("named")).await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("orders-loader")
                    .contains("sink.app-id"));
    assertRows("named", 100, 1);
  }

  @Test
  void commitRetriesRideOutACatalogOutageThatZeroRetriesDoNot() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of("t0k"));
    StreamTableEnvironment sql = sql(1);
    generator(sql, 1, 500);
    String uc = "'uc.uri' = '" + server.uri() + "', 'uc.token' = 't0k', ";

    // Each commit attempt of the catalog client makes up to three calls.
    server.faults().failNext(UPDATE_TABLE, 3, 503);
    sql.executeSql(
        "CREATE TABLE strict (id BIGINT, bucket INT, payload STRING) WITH ('connector' ="
            + " 'delta', "
            + uc
            + "'uc.table' = 'main.default.strict', 'sink.commit.max-retries' = '0')");
    assertThatThrownBy(() -> sql.executeSql(gen("strict")).await())
        .hasStackTraceContaining("INJECTED_FAULT");
    assertThat(server.latestVersion("main.default.strict")).isZero();

    server.faults().failNext(UPDATE_TABLE, 3, 503);
    sql.executeSql(
        "CREATE TABLE patient (id BIGINT, bucket INT, payload STRING) WITH ('connector' ="
            + " 'delta', "
            + uc
            + "'uc.table' = 'main.default.patient', 'sink.commit.max-retries' = '1')");
    sql.executeSql(gen("patient")).await();
    assertThat(CatalogReads.rows(connection, "main.default.patient"))
        .containsExactlyInAnyOrderElementsOf(expected(500, 1));
  }

  @Test
  void withoutCreateIfMissingAMissingTableIsAnErrorNamingTheOption() {
    StreamTableEnvironment sql = sql(1);
    sql.executeSql(
        "CREATE TABLE absent (id BIGINT) WITH ('connector' = 'delta', 'table-path' = '"
            + path("absent")
            + "', 'sink.create-if-missing' = 'false')");
    assertThatThrownBy(() -> sql.executeSql("INSERT INTO absent VALUES (1)").await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("There is no Delta table at")
                    .contains("absent")
                    .contains("'sink.create-if-missing'"));
    assertThat(Files.exists(dir.resolve("absent"))).isFalse();
  }

  /**
   * A bounded source {@code gen} of ids 0..count-1, bucketed by runs of seven ids so that each
   * source subtask (the sequence is split by id) produces every bucket.
   */
  private static void generator(StreamTableEnvironment sql, int buckets, long count) {
    sql.executeSql(
        "CREATE TEMPORARY TABLE gen_ids (id BIGINT) WITH ('connector' = 'datagen',"
            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '"
            + (count - 1)
            + "')");
    sql.executeSql(
        "CREATE TEMPORARY VIEW gen AS SELECT id, CAST(MOD(id / 7, "
            + buckets
            + ") AS INT) AS bucket, CONCAT('payload-', CAST(id * 7919 AS STRING)) AS payload"
            + " FROM gen_ids");
  }

  /** Creates a path table {@code name} with {@code options} and returns its insert from gen. */
  private String insert(StreamTableEnvironment sql, String name, String partitioning, String opts) {
    sql.executeSql(
        "CREATE TABLE "
            + name
            + " (id BIGINT, bucket INT, payload STRING) "
            + partitioning
            + " WITH ('connector' = 'delta', 'table-path' = '"
            + path(name)
            + "'"
            + (opts.isEmpty() ? "" : ", " + opts)
            + ")");
    return gen(name);
  }

  private static String gen(String table) {
    return "INSERT INTO " + table + " SELECT id, bucket, payload FROM gen";
  }

  private String path(String name) {
    return dir.resolve(name).toUri().toString();
  }

  private void assertRows(String table, long count, int buckets) {
    List<List<Object>> rows = DeltaTableReader.readAll(path(table));
    assertThat(rows)
        .hasSize((int) count)
        .containsExactlyInAnyOrderElementsOf(expected(count, buckets));
  }

  private static List<List<Object>> expected(long count, int buckets) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < count; id++) {
      rows.add(List.of(id, (int) (id / 7 % buckets), "payload-" + id * 7919));
    }
    return rows;
  }

  private List<Path> dataFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve(table))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).toList();
    }
  }

  /** The writer subtask in a data file's name: part-<subtask>-<uuid>-<n>.<codec>.parquet. */
  private static int subtask(Path file) {
    return Integer.parseInt(file.getFileName().toString().substring(5, 10));
  }

  private Set<Integer> writerSubtasks(String table) throws IOException {
    return dataFiles(table).stream()
        .map(SqlWriteOptionsITCase::subtask)
        .collect(Collectors.toSet());
  }

  private Map<String, Set<Integer>> writerSubtasksPerPartition(String table) throws IOException {
    Map<String, Set<Integer>> writers = new HashMap<>();
    for (Path file : dataFiles(table)) {
      writers
          .computeIfAbsent(file.getParent().getFileName().toString(), k -> new HashSet<>())
          .add(subtask(file));
    }
    assertThat(writers).hasSize(6);
    return writers;
  }

  private record ParquetShape(int files, int rowGroups, long payloadPages) {}

  /** Files and row groups of the table, and the pages of its payload column. */
  private ParquetShape parquetShape(String table) throws IOException {
    List<Path> files = dataFiles(table);
    int rowGroups = 0;
    long pages = 0;
    for (Path path : files) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(path.toUri());
      try (ParquetFileReader reader =
          ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
        for (BlockMetaData group : reader.getFooter().getBlocks()) {
          rowGroups++;
          pages += reader.readOffsetIndex(group.getColumns().get(2)).getPageCount();
        }
      }
    }
    return new ParquetShape(files.size(), rowGroups, pages);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static StreamTableEnvironment sql(int parallelism) {
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(60_000).parallelism(parallelism).env();
    return StreamTableEnvironment.create(env);
  }
}
