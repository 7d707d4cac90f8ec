/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark 4.2 with Delta 4.4 in the child, against Delta tables on a path: DML on a table with
 * deletion vectors, values and nulls as they come back, Spark's errors as they are thrown, and two
 * schema and protocol changes whose outcome on Delta 4.4 is easy to guess wrong:
 *
 * <ul>
 *   <li>{@code ALTER TABLE t ALTER COLUMN v SET NOT NULL} is refused by Spark's analyzer before
 *       Delta sees it ({@code AnalysisException}, condition {@code _LEGACY_ERROR_TEMP_2330},
 *       "Cannot change nullable column to non-nullable: v."), even with no null in the column: no
 *       commit, the column stays nullable. Hive-style {@code CHANGE COLUMN v v STRING NOT NULL} is
 *       refused by the parser. What does keep NULL out is a CHECK constraint, {@code ADD CONSTRAINT
 *       v_not_null CHECK (v IS NOT NULL)}: table property {@code delta.constraints.v_not_null}, the
 *       protocol raised to writer version 3, an INSERT of NULL refused with {@code
 *       DELTA_VIOLATE_CONSTRAINT_WITH_VALUES}; the schema still says nullable.
 *   <li>{@code ALTER TABLE t DROP FEATURE deletionVectors}, without {@code TRUNCATE HISTORY},
 *       succeeds at once, with no wait, on a table whose files carry deletion vectors. It commits,
 *       in order: {@code UNSET TBLPROPERTIES} (delta.enableDeletionVectors), {@code REORG} with
 *       {@code applyPurge} (rewrites the files that have deletion vectors), {@code Deletion Vector
 *       Tombstones} (removes of the vector files themselves), three {@code Empty Commit}s, then
 *       {@code DROP FEATURE}, each of the last four with a checkpoint. The protocol ends as reader
 *       version 1 (no reader features) and writer version 7 with writer features {@code
 *       invariants}, {@code appendOnly} and {@code checkpointProtection}; the one table property
 *       left is {@code delta.requireCheckpointProtectionBeforeVersion}, the DROP FEATURE commit's
 *       version. The history before that version still holds deletion vectors; checkpointProtection
 *       forbids log clean-up to remove or create checkpoints before that version unless it removes
 *       all of it at once (Delta's checkpoint-protection RFC), so a writer must support that
 *       feature.
 *   <li>{@code DROP FEATURE deletionVectors TRUNCATE HISTORY}, the older way, makes the same
 *       clean-up commits (with one empty commit) but then fails with {@code
 *       DELTA_FEATURE_DROP_WAIT_FOR_RETENTION_PERIOD}: the protocol keeps deletionVectors (reader
 *       3, writer 7). Its message says to wait for delta.logRetentionDuration (30 days) or to
 *       repeat the command after 24 hours.
 * </ul>
 *
 * <p>The two DROP FEATURE tests take two minutes and only record Spark's behaviour (what the sink
 * relies on of it, {@code UpsertBesideSparkITCase} tests), so they run on request: {@code
 * -Dspark.behaviour.tests=true}.
 */
class SparkSqlTest {

  private static final String BEHAVIOUR_TESTS = "spark.behaviour.tests";

  @TempDir static Path directory;
  private static SparkSql spark;

  @BeforeAll
  static void start() {
    spark = SparkSql.start(directory.resolve("spark"), Map.of("spark.sql.session.timeZone", "UTC"));
    assertThat(spark.sparkVersion()).isEqualTo("4.2.0");
  }

  @AfterAll
  static void stop() {
    spark.close();
  }

  @Test
  void runsDmlOnADeltaTableWithDeletionVectors() {
    String table = table("dml");
    createWithDeletionVectors(table);
    insertIntoOneFile(table, "(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");

    assertThat(spark.query("DELETE FROM " + table + " WHERE id = 2")).containsExactly(row("1"));
    assertThat(deletionVectorsAddedByLastCommit(table)).isEqualTo("1");
    assertThat(spark.query("UPDATE " + table + " SET v = 'C' WHERE id = 3"))
        .containsExactly(row("1"));
    // MERGE answers num_affected_rows, num_updated_rows, num_deleted_rows, num_inserted_rows.
    assertThat(
            spark.query(
                "MERGE INTO "
                    + table
                    + " t USING (SELECT * FROM VALUES (4, 'D'), (5, 'e') AS s(id, v)) s"
                    + " ON t.id = s.id"
                    + " WHEN MATCHED THEN UPDATE SET v = s.v"
                    + " WHEN NOT MATCHED THEN INSERT *"))
        .containsExactly(row("2", "1", "0", "1"));
    assertThat(spark.query("OPTIMIZE " + table))
        .singleElement()
        .satisfies(r -> assertThat(r.get(0)).endsWith(directory.resolve("dml").toString()));

    assertThat(spark.query("SELECT id, v FROM " + table + " ORDER BY id"))
        .containsExactly(row("1", "a"), row("3", "C"), row("4", "D"), row("5", "e"));
    assertThat(history(table))
        .containsExactly("OPTIMIZE", "MERGE", "UPDATE", "DELETE", "WRITE", "CREATE TABLE");
    assertThat(properties(table))
        .containsEntry("delta.enableDeletionVectors", "true")
        .containsEntry("delta.feature.deletionVectors", "supported");
  }

  @Test
  void valuesComeBackAsSparkWritesThemAndNullsAsNull() {
    assertThat(
            spark.query(
                "SELECT 1 AS x, NULL AS x, 'null', '', concat('a', chr(9), 'b', chr(10), 'c'),"
                    + " array(1, 2), named_struct('k', 1, 'l', 'z'), CAST(NULL AS STRING),"
                    + " TIMESTAMP '2024-01-02 03:04:05', 1.5D, '\\\\N'"))
        .containsExactly(
            row(
                "1",
                null,
                "null",
                "",
                "a\tb\nc",
                "[1, 2]",
                "{1, z}",
                null,
                "2024-01-02 03:04:05",
                "1.5",
                "\\N"));
    assertThat(spark.query("SELECT id FROM range(3)"))
        .containsExactly(row("0"), row("1"), row("2"));
    assertThat(spark.query("SELECT 1 WHERE false")).isEmpty();
    assertThat(spark.query("SET spark.sql.session.timeZone"))
        .containsExactly(row("spark.sql.session.timeZone", "UTC"));
  }

  @Test
  void aFailedStatementThrowsSparksErrorAndTheChildCarriesOn() {
    assertThatThrownBy(() -> spark.query("SELECT * FROM no_such_table"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e -> {
              assertThat(e.sparkExceptionClass()).endsWith("AnalysisException");
              assertThat(e.errorCondition()).contains("TABLE_OR_VIEW_NOT_FOUND");
              assertThat(e.sparkMessage())
                  .startsWith(
                      "[TABLE_OR_VIEW_NOT_FOUND] The table or view `no_such_table` cannot be found.");
              assertThat(e.statement()).isEqualTo("SELECT * FROM no_such_table");
              assertThat(e).hasMessageContaining(spark.logFile().toString());
            });
    assertThatThrownBy(() -> spark.execute("SELEC 1"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e -> {
              assertThat(e.sparkExceptionClass())
                  .isEqualTo("org.apache.spark.sql.catalyst.parser.ParseException");
              assertThat(e.errorCondition()).contains("PARSE_SYNTAX_ERROR");
            });

    assertThat(spark.query("SELECT 42")).containsExactly(row("42"));
  }

  @Test
  void setNotNullIsRefusedButACheckConstraintKeepsNullsOut() {
    String table = table("not_null");
    spark.execute("CREATE TABLE " + table + " (id BIGINT, v STRING) USING delta");
    spark.execute("INSERT INTO " + table + " VALUES (1, 'a')");

    assertThatThrownBy(() -> spark.execute("ALTER TABLE " + table + " ALTER COLUMN v SET NOT NULL"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e -> {
              assertThat(e.errorCondition()).contains("_LEGACY_ERROR_TEMP_2330");
              assertThat(e.sparkMessage())
                  .startsWith("Cannot change nullable column to non-nullable: v.");
            });
    assertThatThrownBy(
            () -> spark.execute("ALTER TABLE " + table + " CHANGE COLUMN v v STRING NOT NULL"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e ->
                assertThat(e.sparkMessage())
                    .contains("NOT NULL is not supported in Hive-style ALTER COLUMN"));
    assertThat(history(table)).containsExactly("WRITE", "CREATE TABLE");

    spark.execute("ALTER TABLE " + table + " ADD CONSTRAINT v_not_null CHECK (v IS NOT NULL)");
    assertThatThrownBy(() -> spark.execute("INSERT INTO " + table + " VALUES (2, NULL)"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e -> assertThat(e.errorCondition()).contains("DELTA_VIOLATE_CONSTRAINT_WITH_VALUES"));
    assertThat(properties(table))
        .containsEntry("delta.constraints.v_not_null", "v IS NOT NULL")
        .containsEntry("delta.minWriterVersion", "3");
    assertThat(spark.query("SELECT id, v FROM " + table)).containsExactly(row("1", "a"));
  }

  @Test
  @EnabledIfSystemProperty(named = BEHAVIOUR_TESTS, matches = "true")
  void dropFeatureDeletionVectorsPurgesThemAndProtectsTheHistoryWithoutAWait() throws Exception {
    String table = table("drop_dv");
    createWithDeletionVectors(table);
    insertIntoOneFile(table, "(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
    spark.execute("DELETE FROM " + table + " WHERE id = 2");
    assertThat(deletionVectorsAddedByLastCommit(table)).isEqualTo("1");

    spark.execute("ALTER TABLE " + table + " DROP FEATURE deletionVectors");

    assertThat(history(table))
        .containsExactly(
            "DROP FEATURE",
            "Empty Commit",
            "Empty Commit",
            "Empty Commit",
            "Deletion Vector Tombstones",
            "REORG",
            "UNSET TBLPROPERTIES",
            "DELETE",
            "WRITE",
            "CREATE TABLE");
    String dropVersion = spark.query("DESCRIBE HISTORY " + table + " LIMIT 1").get(0).get(0);
    long drop = Long.parseLong(dropVersion);
    assertThat(properties(table))
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of(
                    "delta.feature.appendOnly", "supported",
                    "delta.feature.checkpointProtection", "supported",
                    "delta.feature.invariants", "supported",
                    "delta.minReaderVersion", "1",
                    "delta.minWriterVersion", "7",
                    "delta.requireCheckpointProtectionBeforeVersion", dropVersion)));
    Path commit =
        directory.resolve("drop_dv/_delta_log").resolve(String.format("%020d.json", drop));
    assertThat(Files.readAllLines(commit))
        .filteredOn(action -> action.startsWith("{\"protocol\""))
        .containsExactly(
            "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":7,"
                + "\"writerFeatures\":[\"invariants\",\"appendOnly\",\"checkpointProtection\"]}}");
    for (long version = drop - 3; version <= drop; version++) {
      assertThat(commit.resolveSibling(String.format("%020d.checkpoint.parquet", version)))
          .exists();
    }
    assertThat(spark.query("SELECT id, v FROM " + table + " ORDER BY id"))
        .containsExactly(row("1", "a"), row("3", "c"), row("4", "d"));
  }

  @Test
  @EnabledIfSystemProperty(named = BEHAVIOUR_TESTS, matches = "true")
  void dropFeatureWithTruncateHistoryCleansUpButWaitsForTheRetentionPeriod() {
    String table = table("truncate_dv");
    createWithDeletionVectors(table);
    insertIntoOneFile(table, "(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
    spark.execute("DELETE FROM " + table + " WHERE id = 2");
    assertThat(deletionVectorsAddedByLastCommit(table)).isEqualTo("1");

    assertThatThrownBy(
            () ->
                spark.execute(
                    "ALTER TABLE " + table + " DROP FEATURE deletionVectors TRUNCATE HISTORY"))
        .isInstanceOfSatisfying(
            SparkSqlException.class,
            e ->
                assertThat(e.errorCondition())
                    .contains("DELTA_FEATURE_DROP_WAIT_FOR_RETENTION_PERIOD"));

    assertThat(history(table))
        .containsExactly(
            "Empty Commit",
            "Deletion Vector Tombstones",
            "REORG",
            "UNSET TBLPROPERTIES",
            "DELETE",
            "WRITE",
            "CREATE TABLE");
    assertThat(properties(table))
        .doesNotContainKey("delta.enableDeletionVectors")
        .containsEntry("delta.feature.deletionVectors", "supported")
        .containsEntry("delta.minReaderVersion", "3")
        .containsEntry("delta.minWriterVersion", "7");
  }

  private static void createWithDeletionVectors(String table) {
    spark.execute(
        "CREATE TABLE "
            + table
            + " (id BIGINT, v STRING) USING delta"
            + " TBLPROPERTIES ('delta.enableDeletionVectors'='true')");
  }

  /**
   * Inserts rows as one data file, so that deleting one of them marks it in a deletion vector
   * rather than removing a file that held it alone.
   */
  private static void insertIntoOneFile(String table, String values) {
    spark.execute(
        "INSERT INTO "
            + table
            + " SELECT /*+ REPARTITION(1) */ * FROM VALUES "
            + values
            + " AS s(id, v)");
  }

  private static String deletionVectorsAddedByLastCommit(String table) {
    // DESCRIBE HISTORY: ..., operationMetrics (a map, as a string) at 12.
    String metrics = spark.query("DESCRIBE HISTORY " + table + " LIMIT 1").get(0).get(12);
    return metrics.replaceAll(".*numDeletionVectorsAdded -> (\\d+).*", "$1");
  }

  private static String table(String name) {
    return "delta.`" + directory.resolve(name) + "`";
  }

  /** The operations in the table's history, newest first. */
  private static List<String> history(String table) {
    // DESCRIBE HISTORY: version, timestamp, userId, userName, operation, ...
    return spark.query("DESCRIBE HISTORY " + table).stream().map(r -> r.get(4)).toList();
  }

  private static Map<String, String> properties(String table) {
    Map<String, String> properties = new TreeMap<>();
    spark.query("SHOW TBLPROPERTIES " + table).forEach(r -> properties.put(r.get(0), r.get(1)));
    return properties;
  }

  private static List<String> row(String... values) {
    return Arrays.asList(values);
  }
}
