package io.github.flinkdelta.it;

import static io.github.flinkdelta.it.EvolvingRows.V1;
import static io.github.flinkdelta.it.EvolvingRows.V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TypeChange;
import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.core.config.DeltaSinkOptions.SchemaEvolution;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path table follows the rows' shape as {@code sink.schema-evolution} allows: evolved when the
 * sink is built, before any file of the new shape is written, and read back with every row exactly
 * once, old rows with nulls in the new columns and their narrower values widened.
 */
class SchemaEvolutionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  @TempDir Path dir;

  @Test
  void aJobRedeployedFromASavepointWithWiderRowsEvolvesTheTableAndWritesEveryRowOnce()
      throws Exception {
    String table = table("redeployed");
    long count = 600;
    SourceGate gate = SourceGate.in(shared);

    // The first job writes rows of the first shape until its readers wait at the gate, which
    // never opens for it; all it sent is committed before it stops.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    EvolvingRows.v1Rows(EvolvingRows.indexes(env, count, gate, 100))
        .sinkTo(sink(table, V1).uidPrefix("delta-sink").build())
        .uid("delta-sink");
    JobClient first = env.executeAsync("first shape");
    Await.until(first, "both readers wait at the gate", () -> gate.waiting() == 2);
    long sent = gate.emitted();
    Await.until(first, sent + " rows committed", () -> rows(table).size() == sent);
    List<List<Object>> beforeEvolution = rows(table);
    String savepoint =
        first
            .stopWithSavepoint(
                false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get(2, TimeUnit.MINUTES);
    long lastFirstShapeVersion = DeltaTableReader.version(table);

    // The second job's sink evolves the table when it is built, in one version without data.
    DeltaSink wider =
        sink(table, V2).uidPrefix("delta-sink").schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = lastFirstShapeVersion + 1;
    assertThat(DeltaTableReader.version(table)).isEqualTo(schemaVersion);
    assertThat(DeltaLogFiles.actions(table, schemaVersion, "metaData")).hasSize(1);
    assertThat(DeltaLogFiles.actions(table, schemaVersion, "add")).isEmpty();
    assertEvolvedToTheSecondShape(table);

    StreamExecutionEnvironment env2 =
        FLINK.job().checkpointEveryMillis(100).restarts(3).restoredFrom(savepoint).env();
    EvolvingRows.v2Rows(EvolvingRows.indexes(env2, count)).sinkTo(wider).uid("delta-sink");
    env2.execute("second shape");

    // Every row number once: those committed before the change read as the first shape did, with
    // qty widened and nulls in the new columns; all later ones carry the second shape's values.
    List<List<Object>> rows = rows(table);
    Set<Long> ids = new HashSet<>();
    rows.forEach(r -> ids.add((Long) r.get(0)));
    long duplicated = rows.size() - ids.size();
    long lost = count - ids.size();
    assertThat(duplicated).as("rows written twice").isZero();
    assertThat(lost).as("rows lost").isZero();
    Set<Long> firstShape = new HashSet<>();
    beforeEvolution.forEach(r -> firstShape.add((Long) r.get(0)));
    assertThat(firstShape).hasSize((int) sent).isNotEmpty();
    assertThat(beforeEvolution)
        .containsExactlyInAnyOrderElementsOf(
            firstShape.stream().map(EvolvingRows::v1AsWritten).toList());
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      expected.add(firstShape.contains(i) ? EvolvingRows.v1Read(i) : EvolvingRows.v2Read(i));
    }
    assertThat(count - firstShape.size()).as("rows of the second job").isPositive();
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    // One app id throughout: the second job took it from the savepoint.
    assertThat(DeltaLogFiles.appIds(table)).hasSize(1);
    // Only the evolution changed the schema; every later version adds files.
    for (long v = schemaVersion + 1; v <= DeltaTableReader.version(table); v++) {
      assertThat(DeltaLogFiles.actions(table, v, "metaData")).as("version %d", v).isEmpty();
      assertThat(DeltaLogFiles.actions(table, v, "add")).as("version %d", v).isNotEmpty();
    }
  }

  @Test
  void aJobThatFailsBeforeItsFirstRowPassesRestartsOnTheEvolvedTable() throws Exception {
    String table = table("mapper-failure");
    writeFirstShape(table, 0, 50);
    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);

    // Each mapper's first attempt throws at its first row: no row of the new shape reached a
    // file before the failure, let alone a commit.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    secondShapeFrom(env, 50, 150).map(new FailingMapper(injected, 1, 1)).sinkTo(wider);
    env.execute("fails before any row passes");

    assertThat(injected.count()).isBetween(1, 2);
    assertRestartedCleanly(table, schemaVersion, 50, 150);
  }

  @Test
  void aJobWhoseFirstDataCommitFailsRestartsOnTheEvolvedTable() throws Exception {
    String table = table("commit-failure");
    writeFirstShape(table, 0, 50);
    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);

    // The committer's first attempt fails every commit, before it reaches the table: the first
    // checkpoint's files of the new shape are committed only after the restart.
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    secondShapeFrom(env, 50, 150)
        .sinkTo(new FaultyCommitSink(wider, injected, FaultyCommitSink.When.BEFORE_COMMIT, 1, 1));
    env.execute("first commit fails");

    assertThat(injected.count()).isEqualTo(1);
    assertRestartedCleanly(table, schemaVersion, 50, 150);
  }

  @Test
  void rowsWithColumnsInAnotherOrderAndWithoutANullableColumnAreWrittenByName() throws Exception {
    String table = table("by-name");
    EvolvingRows.writeInBatch(FLINK, V2, sink(table, V2).build(), 0, 20);
    long version = DeltaTableReader.version(table);

    // Top-level columns in another order, info's fields in another order, qty left out.
    RowType info =
        RowType.of(
            new LogicalType[] {new IntType(), EvolvingRows.string()},
            new String[] {"score", "label"});
    RowType shuffled =
        RowType.of(
            new LogicalType[] {EvolvingRows.string(), info, new BigIntType(false), new IntType()},
            new String[] {"note", "info", "id", "bucket"});
    // Nothing to evolve: even 'none' takes these rows, and the table keeps its version.
    DeltaSink sink = sink(table, shuffled).schemaEvolution(SchemaEvolution.NONE).build();
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    EvolvingRows.indexes(env, 20)
        .map(
            i -> {
              long id = i + 20;
              return (RowData)
                  GenericRowData.of(
                      StringData.fromString(EvolvingRows.note(id)),
                      GenericRowData.of(
                          EvolvingRows.score(id), StringData.fromString(EvolvingRows.label(id))),
                      id,
                      EvolvingRows.bucket(id));
            })
        .returns(InternalTypeInfo.of(shuffled))
        .sinkTo(sink);
    env.execute("shuffled columns");

    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < 20; i++) {
      expected.add(EvolvingRows.v2Read(i));
    }
    for (long i = 20; i < 40; i++) {
      expected.add(
          Arrays.asList(
              i,
              EvolvingRows.bucket(i),
              null,
              Arrays.asList(EvolvingRows.label(i), EvolvingRows.score(i)),
              EvolvingRows.note(i)));
    }
    assertThat(rows(table)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void rowsWithoutANotNullTableColumnFailTheBuildNamingIt() throws Exception {
    String table = table("not-null-missing");
    writeFirstShape(table, 0, 10);
    long version = DeltaTableReader.version(table);
    RowType withoutId =
        RowType.of(
            new LogicalType[] {new IntType(), new IntType(), EvolvingRows.INFO_V1},
            new String[] {"bucket", "qty", "info"});

    assertThatThrownBy(() -> sink(table, withoutId).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'id'")
        .hasMessageContaining("NOT NULL");
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
  }

  @Test
  void modeNoneListsEveryDifferenceInOneMessageAndLeavesTheTableAsItWas() throws Exception {
    String table = table("none");
    writeFirstShape(table, 0, 10);
    long version = DeltaTableReader.version(table);
    StructType schema = DeltaLogFiles.snapshot(table).getSchema();

    assertThatThrownBy(() -> sink(table, V2).schemaEvolution(SchemaEvolution.NONE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column 'note' (string) of the rows is not in the table")
        .hasMessageContaining("column 'info.score' (integer) of the rows is not in the table")
        .hasMessageContaining("column 'qty' is integer in the table but long in the rows")
        .hasMessageContaining("'sink.schema-evolution' = 'add-columns'")
        .hasMessageContaining("'sink.schema-evolution' = 'widen'");

    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
    assertThat(DeltaLogFiles.snapshot(table).getSchema()).isEqualTo(schema);
    assertThat(rows(table))
        .containsExactlyInAnyOrderElementsOf(
            java.util.stream.LongStream.range(0, 10).mapToObj(EvolvingRows::v1AsWritten).toList());
  }

  @Test
  void aTableWithoutColumnMappingIsUpgradedInAVersionOfItsOwnBeforeItsSchemaChanges()
      throws Exception {
    String table = table("no-column-mapping");
    EvolvingRows.writeInBatch(
        FLINK,
        V1,
        sink(table, V1).tableProperty("delta.columnMapping.mode", "none").build(),
        0,
        30);
    long before = DeltaTableReader.version(table);

    // Without leave to upgrade it, the sink refuses and says which option allows it.
    assertThatThrownBy(
            () ->
                sink(table, V2)
                    .schemaEvolution(SchemaEvolution.WIDEN)
                    .option(DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING, false)
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("sink.schema-evolution.enable-column-mapping");
    assertThat(DeltaTableReader.version(table)).isEqualTo(before);

    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    assertThat(DeltaTableReader.version(table)).isEqualTo(before + 2);
    // First the upgrade alone: same columns, now with physical names and ids.
    var upgrade = DeltaLogFiles.actions(table, before + 1, "metaData");
    assertThat(upgrade).hasSize(1);
    assertThat(upgrade.get(0).get("configuration").get("delta.columnMapping.mode").asText())
        .isEqualTo("name");
    assertThat(upgrade.get(0).get("schemaString").asText())
        .doesNotContain("\"note\"")
        .doesNotContain("\"score\"");
    assertThat(DeltaLogFiles.actions(table, before + 2, "metaData")).hasSize(1);
    assertEvolvedToTheSecondShape(table);

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    secondShapeFrom(env, 30, 30).sinkTo(wider);
    env.execute("second shape");

    assertThat(rows(table)).containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(30, 30));
  }

  /** The table's schema is the second shape, with qty's widening recorded. */
  private static void assertEvolvedToTheSecondShape(String table) {
    var snapshot = DeltaLogFiles.snapshot(table);
    StructType schema = snapshot.getSchema();
    assertThat(schema.fieldNames()).containsExactly("id", "bucket", "qty", "info", "note");
    StructField qty = schema.get("qty");
    assertThat(qty.getDataType()).isEqualTo(LongType.LONG);
    assertThat(qty.getTypeChanges())
        .extracting(TypeChange::getFrom, TypeChange::getTo)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(IntegerType.INTEGER, LongType.LONG));
    assertThat(((StructType) schema.get("info").getDataType()).fieldNames())
        .containsExactly("label", "score");
    assertThat(schema.get("note").isNullable()).isTrue();
    assertThat(snapshot.getTableProperties()).containsEntry("delta.enableTypeWidening", "true");
  }

  /**
   * After one failure the table holds the first shape's rows and the second's, each once; the
   * schema changed once, at the build, and the next version is a data commit.
   */
  private static void assertRestartedCleanly(
      String table, long schemaVersion, long firstRows, long rows) throws Exception {
    assertThat(rows(table))
        .containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(firstRows, rows));
    assertThat(DeltaLogFiles.actions(table, schemaVersion + 1, "add")).isNotEmpty();
    for (long v = schemaVersion + 1; v <= DeltaTableReader.version(table); v++) {
      assertThat(DeltaLogFiles.actions(table, v, "metaData")).as("version %d", v).isEmpty();
    }
    // A resubmitted job finds the table evolved already and commits nothing when built.
    long version = DeltaTableReader.version(table);
    sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
  }

  /** Rows {@code from} to {@code from + count - 1} of the first shape, in one batch job. */
  private static void writeFirstShape(String table, long from, long count) throws Exception {
    EvolvingRows.writeInBatch(FLINK, V1, sink(table, V1).build(), from, count);
  }

  /** Rows {@code from} to {@code from + count - 1} of the second shape. */
  private static DataStream<RowData> secondShapeFrom(
      StreamExecutionEnvironment env, long from, long count) {
    return EvolvingRows.v2Rows(
        EvolvingRows.indexes(env, count).map(i -> i + from).returns(Types.LONG));
  }

  private static DeltaSinkBuilder sink(String table, RowType type) {
    return DeltaSink.builder().tablePath(table).rowType(type).partitionColumns("bucket");
  }

  private static List<List<Object>> rows(String table) {
    return DeltaTableReader.readAll(table);
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
