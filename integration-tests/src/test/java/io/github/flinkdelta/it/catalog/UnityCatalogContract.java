/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionResult;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.it.dynamic.ChangelogTables;
import io.github.flinkdelta.it.dynamic.DroppedTables;
import io.github.flinkdelta.it.dynamic.TableEventJobs;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.IndexGate;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.github.flinkdelta.uc.internal.UnityCatalogTableReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End-to-end checks that hold against any Unity Catalog: the embedded test server, a real endpoint
 * named in the environment, or the Unity Catalog OSS image. Each implementation says where the
 * catalog is.
 */
abstract class UnityCatalogContract {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 3;

  /** The catalog to test. */
  abstract UnityCatalogConnection connection();

  /** A catalog and schema in which the tests may create tables. */
  abstract String catalog();

  abstract String schema();

  /** Storage options the job needs beyond the vended credentials, such as an S3 endpoint. */
  Map<String, String> storageOptions() {
    return Map.of();
  }

  @Test
  void managedTableIsCreatedAndWrittenExactlyOnceThroughTaskFailures() throws Exception {
    String table =
        catalog()
            + "."
            + schema()
            + ".flink_delta_"
            + UUID.randomUUID().toString().replace("-", "");
    long count = 2_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).restarts(4).env();
    TestRows.source(env, count, 2_000, BUCKETS)
        .map(new FailingMapper(injected, 2, 400))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .hadoopOptions(storageOptions())
                .build());
    env.execute("contract: exactly once");

    // Each of the first two attempts failed (in one subtask or both).
    assertThat(injected.count()).isGreaterThanOrEqualTo(2);
    assertThat(CatalogReads.table(connection(), table).managed()).isTrue();
    assertThat(CatalogReads.read(connection(), table, storageOptions()).rows())
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
  }

  @Test
  void theDynamicSinkCreatesManagedTablesOnTheFlyAndKeepsEachExactlyOnce() throws Exception {
    String prefix = "flink_delta_dyn_" + UUID.randomUUID().toString().substring(0, 8) + "_";
    long count = 3_000;
    Changelog changelog = new Changelog(300);
    ChangelogTables tables = new ChangelogTables(prefix, 2);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).restarts(4).env();
    changelog
        .source(env, 0, count, 3_000)
        .map(FailingMapper.untilFired(injected, 1, 1_000))
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .setParallelism(1)
        .sinkTo(
            DeltaSink.dynamic(tables)
                .unityCatalog(connection())
                .defaultNamespace(catalog() + "." + schema())
                .hadoopOptions(storageOptions())
                .distributeBy(ChangelogTables.byKey())
                .build());
    env.execute("contract: dynamic sink");

    assertThat(injected.count()).isEqualTo(1);
    tables
        .expected(changelog, count)
        .forEach(
            (table, rows) -> {
              String name = catalog() + "." + schema() + "." + table;
              assertThat(CatalogReads.table(connection(), name).managed()).isTrue();
              UpsertAssert.assertRows(
                  CatalogReads.read(connection(), name, storageOptions()).rows(), rows, name);
            });
    String audit = catalog() + "." + schema() + "." + prefix + "audit";
    assertThat(CatalogReads.read(connection(), audit, storageOptions()).rows())
        .hasSize((int) count);
  }

  /**
   * Tables dropped at the source, through the dynamic sink with {@code sink.dynamic.table-events =
   * APPLY}: each drop deletes the managed table from the catalog after the rows before it, and the
   * rows after it register a new managed table in a shape the dropped one could not evolve into.
   */
  @Test
  void theDynamicSinkDropsManagedTablesAndCreatesThemAnewInOrderWithTheirRows() throws Exception {
    String namespace = catalog() + "." + schema();
    String prefix = "flink_delta_drop_" + UUID.randomUUID().toString().substring(0, 8) + "_";
    long count = 1_500;
    DroppedTables tables = new DroppedTables(injected, prefix, 500, 1_000, count);
    String events = namespace + "." + tables.events();
    String keyed = namespace + "." + tables.keyed();
    long last = count - 2;
    TableEventJobs.run(
        FLINK,
        shared,
        count,
        DeltaSink.dynamic(tables)
            .unityCatalog(connection())
            .defaultNamespace(namespace)
            .hadoopOptions(storageOptions()),
        () ->
            rowsIfAny(events).stream().anyMatch(r -> (long) r.get(0) == last)
                && rowsIfAny(keyed).contains(tables.keyedRow(last)));

    assertThat(injected.count()).isEqualTo(2);
    assertThat(CatalogReads.read(connection(), events, storageOptions()).rows())
        .containsExactlyInAnyOrderElementsOf(tables.keptEvents());
    UpsertAssert.assertRows(
        CatalogReads.read(connection(), keyed, storageOptions()).rows(),
        tables.latestKeyed(),
        keyed);
    assertThat(CatalogReads.columns(connection(), keyed))
        .filteredOn(column -> column.getName().equals("v"))
        .singleElement()
        .satisfies(v -> assertThat(v.getTypeName().getValue()).isEqualTo("STRING"));
  }

  /**
   * The rows of a catalog table; none while the catalog does not have it (dropped, not created).
   */
  private List<List<Object>> rowsIfAny(String table) {
    try {
      return CatalogReads.read(connection(), table, storageOptions()).rows();
    } catch (RuntimeException missingOrDroppedMeanwhile) {
      return List.of();
    }
  }

  @Test
  void upsertsIntoAManagedTableKeepOneRowPerKeyThroughTaskFailuresWhileTheWritersCompact()
      throws Exception {
    String table =
        catalog()
            + "."
            + schema()
            + ".flink_upsert_"
            + UUID.randomUUID().toString().replace("-", "");
    Changelog changelog = new Changelog(200);
    long changes = 4_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).restarts(4).env();
    // Slow enough for a few dozen checkpoints, each writing files of every bucket; the source
    // waits before its last change until a writer's compaction is committed (checkpoints, and
    // with them the writers' compactions, go on meanwhile), however slow the machine.
    IndexGate gate = IndexGate.before(shared, changes - 1);
    changelog
        .source(env, 0, changes, gate, 1_000)
        .map(new FailingMapper(injected, 2, 1_500))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(Changelog.TYPE)
                .partitionColumns("bucket")
                .primaryKey("id")
                .hadoopOptions(storageOptions())
                // The writers compact their own files, through catalog commits too.
                .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                .build());
    JobClient job = env.executeAsync("contract: upserts");
    Await.until(
        job,
        "a writer's compaction committed, the source at its gate",
        () ->
            gate.holds()
                && CatalogReads.dataFilesOfEveryVersion(connection(), table, storageOptions())
                    .stream()
                    .anyMatch(path -> path.contains("-compacted-")));
    gate.open();
    job.getJobExecutionResult().get();

    assertThat(injected.count()).isEqualTo(2);
    CatalogReads.Read read = CatalogReads.read(connection(), table, storageOptions());
    assertThat(read.rows())
        .containsExactlyInAnyOrderElementsOf(Changelog.rows(changelog.expected(changes)));
    assertThat(readBounded(table))
        .as("the source's read of the catalog's latest version, deletion vectors applied")
        .containsExactlyInAnyOrderElementsOf(Changelog.rows(changelog.expected(changes)));
  }

  @Test
  void aManagedTableIsReadThroughTheCatalogBoundedAndAsItGrows() throws Exception {
    String table =
        catalog() + "." + schema() + ".flink_read_" + UUID.randomUUID().toString().replace("-", "");
    writeRows(table, 0, 1_000);
    assertThat(readBounded(table))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(1_000, BUCKETS));

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).env();
    DeltaSource source =
        DeltaSource.builder()
            .unityCatalog(connection())
            .tableName(table)
            .hadoopOptions(storageOptions())
            .continuous()
            .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(200))
            .build();
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> rows =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "contract source")
            .executeAndCollect()) {
      for (int i = 0; i < 1_000; i++) {
        read.add(TestRows.values(rows.next()));
      }
      // A later job's commits, ratified by the catalog, reach the running read.
      writeRows(table, 1_000, 500);
      for (int i = 0; i < 500; i++) {
        read.add(TestRows.values(rows.next()));
      }
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(TestRows.expected(1_500, BUCKETS));
  }

  private void writeRows(String table, long from, long count) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).env();
    TestRows.source(env, from + count, 100_000, BUCKETS)
        .filter(row -> row.getLong(0) >= from)
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .hadoopOptions(storageOptions())
                .build());
    env.execute("contract: rows " + from + " to " + (from + count - 1));
  }

  private List<List<Object>> readBounded(String table) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().env();
    DeltaSource source =
        DeltaSource.builder()
            .unityCatalog(connection())
            .tableName(table)
            .hadoopOptions(storageOptions())
            .bounded()
            .build();
    RowType type = source.columnTypes();
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> rows =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "contract source")
            .executeAndCollect()) {
      rows.forEachRemaining(row -> read.add(TestRows.values(row, type)));
    }
    return read;
  }

  @Test
  void aManagedTableIsCompactedInTheJobAndAgainOnItsOwnThroughTheCatalog() throws Exception {
    String table =
        catalog()
            + "."
            + schema()
            + ".flink_compact_"
            + UUID.randomUUID().toString().replace("-", "");
    String appId = "contract-" + UUID.randomUUID();
    long count = 2_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).restarts(4).env();
    // Slow enough for a dozen commits, so that a compaction started in the job lands in it.
    TestRows.source(env, count, 500, BUCKETS)
        .map(new FailingMapper(injected, 1, 400))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .hadoopOptions(storageOptions())
                .option(DeltaSinkOptions.APP_ID, appId)
                .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                .build());
    env.execute("contract: compaction in the job");

    CompactionResult standalone;
    long inJob;
    try (DeltaTable delta =
        DeltaTable.open(
            TableRequest.of(
                new UnityCatalogTableReference(connection(), UnityCatalogTableName.parse(table)),
                HadoopConfigurations.of(storageOptions())))) {
      inJob = delta.transactionVersion(appId + ".compaction");
      standalone =
          delta
              .maintenance()
              .compact(new CompactionOptions(128L << 20, 2, 1L << 30, 0.2), "contract-compaction");
    }

    assertThat(injected.count()).isPositive();
    assertThat(inJob).as("version a compaction in the job planned on").isPositive();
    assertThat(standalone.committed()).isTrue();
    CatalogReads.Read read = CatalogReads.read(connection(), table, storageOptions());
    assertThat(read.version()).isEqualTo(standalone.version());
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
  }

  @Test
  void aSqlTableCreatedWithAKeyRecordsItAndTakesAnUpdatingQuery() throws Exception {
    String name = "flink_delta_keyed_" + UUID.randomUUID().toString().replace("-", "");
    String table = catalog() + "." + schema() + "." + name;
    StreamTableEnvironment sql =
        StreamTableEnvironment.create(FLINK.job().checkpointEveryMillis(150).env());
    createCatalog(sql);
    String path = "contract.`" + schema() + "`." + name;
    sql.executeSql(
        "CREATE TABLE " + path + " (k INT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT ENFORCED)");
    sql.executeSql(
            "INSERT INTO "
                + path
                + " SELECT k, COUNT(*) FROM (VALUES (1), (2), (1), (3), (1), (2)) AS v(k) GROUP BY k")
        .await();
    // A second job, without the key in its statement, finds it in the catalog.
    sql.executeSql(
            "INSERT INTO "
                + path
                + " SELECT k, -COUNT(*) FROM (VALUES (2), (4)) AS v(k) GROUP BY k")
        .await();

    assertThat(
            sql.getCatalog("contract")
                .orElseThrow()
                .getTable(new ObjectPath(schema(), name))
                .getUnresolvedSchema()
                .getPrimaryKey())
        .hasValueSatisfying(key -> assertThat(key.getColumnNames()).containsExactly("k"));
    assertThat(CatalogReads.read(connection(), table, storageOptions()).rows())
        .containsExactlyInAnyOrder(
            Arrays.asList(1, 3L),
            Arrays.asList(2, -1L),
            Arrays.asList(3, 1L),
            Arrays.asList(4, -1L));
    sql.executeSql("DROP TABLE " + path);
  }

  @Test
  void sqlAlterTableIsACatalogCommitAndTheCatalogListsTheNewColumns() throws Exception {
    String name = "flink_delta_alter_" + UUID.randomUUID().toString().replace("-", "");
    String table = catalog() + "." + schema() + "." + name;
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    createCatalog(sql);
    String path = "contract.`" + schema() + "`." + name;
    sql.executeSql(
        "CREATE TABLE "
            + path
            + " (id INT NOT NULL, amount INT, who STRING NOT NULL COMMENT 'buyer')");
    sql.executeSql("INSERT INTO " + path + " VALUES (1, 2147483647, 'ann')").await();
    sql.executeSql("ALTER TABLE " + path + " ADD (note STRING COMMENT 'free text')");
    sql.executeSql("ALTER TABLE " + path + " MODIFY (amount BIGINT COMMENT 'in cents')");
    sql.executeSql("ALTER TABLE " + path + " MODIFY (who STRING)");
    sql.executeSql(
            "INSERT INTO " + path + " VALUES (2, 9000000000000000000, CAST(NULL AS STRING), 'big')")
        .await();

    CatalogReads.Read read = CatalogReads.read(connection(), table, storageOptions());
    assertThat(read.rows())
        .containsExactlyInAnyOrder(
            Arrays.asList(1, 2147483647L, "ann", null),
            Arrays.asList(2, 9_000_000_000_000_000_000L, null, "big"));
    assertThat(CatalogReads.describe(CatalogReads.columns(connection(), table)))
        .isEqualTo(CatalogReads.describe(read.schema()))
        .containsExactly(
            Arrays.asList("id", "integer", false, null),
            Arrays.asList("amount", "long", true, "in cents"),
            Arrays.asList("who", "string", true, "buyer"),
            Arrays.asList("note", "string", true, "free text"));
    sql.executeSql("DROP TABLE " + path);
  }

  @Test
  void aJobWithWiderRowsEvolvesTheManagedTableThroughTheCatalog() throws Exception {
    String table =
        catalog()
            + "."
            + schema()
            + ".flink_delta_evolve_"
            + UUID.randomUUID().toString().replace("-", "");
    RowType v1 =
        RowType.of(
            new LogicalType[] {new IntType(false), new IntType()}, new String[] {"id", "qty"});
    RowType v2 =
        RowType.of(
            new LogicalType[] {new VarCharType(20), new BigIntType(), new IntType(false)},
            new String[] {"note", "qty", "id"});
    write(table, v1, SchemaEvolution.ADD_COLUMNS, GenericRowData.of(1, 7));
    long before = CatalogReads.read(connection(), table, storageOptions()).version();

    write(
        table,
        v2,
        SchemaEvolution.WIDEN,
        GenericRowData.of(StringData.fromString("big"), 9_000_000_000L, 2));

    // The schema version, then the rows' version, both ratified by the catalog.
    CatalogReads.Read read = CatalogReads.read(connection(), table, storageOptions());
    assertThat(read.version()).isEqualTo(before + 2);
    assertThat(read.rows())
        .containsExactlyInAnyOrder(
            Arrays.asList(1, 7L, null), Arrays.asList(2, 9_000_000_000L, "big"));
    assertThat(CatalogReads.describe(CatalogReads.columns(connection(), table)))
        .isEqualTo(CatalogReads.describe(read.schema()))
        .containsExactly(
            Arrays.asList("id", "integer", false, null),
            Arrays.asList("qty", "long", true, null),
            Arrays.asList("note", "string", true, null));
  }

  private void write(String table, RowType type, SchemaEvolution mode, RowData row)
      throws Exception {
    StreamExecutionEnvironment env = FLINK.job().env();
    env.fromData(List.of(row), InternalTypeInfo.of(type))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(type)
                .schemaEvolution(mode)
                .hadoopOptions(storageOptions())
                .build());
    env.execute("contract: schema evolution");
  }

  /** Creates the SQL catalog {@code contract} on the catalog under test. */
  private void createCatalog(TableEnvironment sql) {
    sql.executeSql(
        "CREATE CATALOG contract WITH ('type' = 'unitycatalog', 'uc.uri' = '"
            + connection().endpoint()
            + "', 'uc.token' = '"
            + ((UnityCatalogConnection.StaticToken) connection().auth()).token().reveal()
            + "', 'uc.commit-api' = '"
            + connection().commitApi()
            + "', 'catalog' = '"
            + catalog()
            + "'"
            + hadoopOptions()
            + ")");
  }

  private String hadoopOptions() {
    StringBuilder options = new StringBuilder();
    storageOptions()
        .forEach(
            (key, value) ->
                options.append(", 'hadoop.").append(key).append("' = '").append(value).append("'"));
    return options.toString();
  }
}
