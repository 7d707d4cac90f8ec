/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.schema;

import static io.github.flinkdelta.it.support.EvolvingRows.V1;
import static io.github.flinkdelta.it.support.EvolvingRows.V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What building the sink does to an existing path table, as {@code sink.schema-evolution} allows:
 * rows are matched to its columns by name; a difference it allows is committed before any row is
 * written, and one it does not fails the build with every difference listed and the table as it
 * was.
 */
class SchemaEvolutionAtBuildITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @TempDir Path dir;

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
  void rowsNarrowerThanTheTableAreWrittenInTheTablesTypes() throws Exception {
    String table = table("narrower");
    EvolvingRows.writeInBatch(FLINK, V2, sink(table, V2).build(), 0, 20);
    long version = DeltaTableReader.version(table);

    // qty as INT into the BIGINT column, info without score, no note: nothing to evolve.
    DeltaSink narrow = sink(table, V1).schemaEvolution(SchemaEvolution.NONE).build();
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
    EvolvingRows.writeInBatch(FLINK, V1, narrow, 20, 20);

    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < 40; i++) {
      expected.add(i < 20 ? EvolvingRows.v2Read(i) : EvolvingRows.v1Read(i));
    }
    assertThat(rows(table)).containsExactlyInAnyOrderElementsOf(expected);
    // The files hold qty as the table's BIGINT, not as the rows' INT.
    String qty =
        DeltaLogFiles.snapshot(table)
            .getSchema()
            .get("qty")
            .getMetadata()
            .getString("delta.columnMapping.physicalName");
    List<JsonNode> adds = DeltaLogFiles.addsFrom(table, version + 1);
    assertThat(adds).isNotEmpty();
    for (var add : adds) {
      assertThat(
              DeltaLogFiles.footer(table, add)
                  .getType(qty)
                  .asPrimitiveType()
                  .getPrimitiveTypeName())
          .isEqualTo(PrimitiveTypeName.INT64);
    }
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
            LongStream.range(0, 10).mapToObj(EvolvingRows::v1AsWritten).toList());
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
    EvolvingRows.assertSecondShape(table);

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    EvolvingRows.v2Rows(env, 30, 30).sinkTo(wider);
    env.execute("second shape");

    assertThat(rows(table)).containsExactlyInAnyOrderElementsOf(EvolvingRows.expected(30, 30));
  }

  /** Rows {@code from} to {@code from + count - 1} of the first shape, in one batch job. */
  private static void writeFirstShape(String table, long from, long count) throws Exception {
    EvolvingRows.writeInBatch(FLINK, V1, sink(table, V1).build(), from, count);
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
