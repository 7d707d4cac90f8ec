/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.schema;

import static io.github.flinkdelta.it.support.EvolvingRows.V1;
import static io.github.flinkdelta.it.support.EvolvingRows.V2;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The data files a job writes after the table evolved name their columns as the log does: the
 * physical names the log gave the new columns (top level and nested), their field ids on a table in
 * column mapping mode {@code id}, the widened type, and statistics keyed by physical names.
 */
class EvolvedFilesITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";
  private static final String FIELD_ID = "delta.columnMapping.id";

  @TempDir Path dir;

  @ParameterizedTest(name = "column mapping mode {0}")
  @ValueSource(strings = {"name", "id"})
  void filesWrittenAfterTheEvolutionCarryTheColumnMappingTheLogAssigned(String mode)
      throws Exception {
    String table = dir.resolve(mode).toUri().toString();
    EvolvingRows.writeInBatch(
        FLINK, V1, sink(table, V1).tableProperty("delta.columnMapping.mode", mode).build(), 0, 10);
    DeltaSink wider = sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build();
    long schemaVersion = DeltaTableReader.version(table);
    EvolvingRows.writeInBatch(FLINK, V2, wider, 10, 20);

    StructType schema = DeltaLogFiles.snapshot(table).getSchema();
    StructField note = schema.get("note");
    StructField info = schema.get("info");
    StructField score = ((StructType) info.getDataType()).get("score");
    StructField label = ((StructType) info.getDataType()).get("label");
    StructField qty = schema.get("qty");
    // The log gave the new columns physical names of their own, and ids after the old ones'.
    assertThat(physicalName(note)).isNotEqualTo("note");
    assertThat(physicalName(score)).isNotEqualTo("score");
    assertThat(id(note)).isGreaterThan(id(qty));
    assertThat(id(score)).isGreaterThan(id(label));

    List<JsonNode> adds = DeltaLogFiles.addsFrom(table, schemaVersion + 1);
    assertThat(adds).isNotEmpty();
    for (JsonNode add : adds) {
      MessageType footer = DeltaLogFiles.footer(table, add);
      assertThat(footer.getFields())
          .extracting(Type::getName)
          .containsExactlyInAnyOrder(
              physicalName(schema.get("id")),
              physicalName(qty),
              physicalName(info),
              physicalName(note));
      Type noteColumn = footer.getType(physicalName(note));
      GroupType infoColumn = footer.getType(physicalName(info)).asGroupType();
      Type scoreColumn = infoColumn.getType(physicalName(score));
      assertThat(infoColumn.getFields())
          .extracting(Type::getName)
          .containsExactly(physicalName(label), physicalName(score));
      assertThat(footer.getType(physicalName(qty)).asPrimitiveType().getPrimitiveTypeName())
          .isEqualTo(PrimitiveTypeName.INT64);
      if (mode.equals("id")) {
        assertThat(noteColumn.getId().intValue()).isEqualTo(id(note));
        assertThat(scoreColumn.getId().intValue()).isEqualTo(id(score));
        assertThat(infoColumn.getId().intValue()).isEqualTo(id(info));
        assertThat(footer.getType(physicalName(qty)).getId().intValue()).isEqualTo(id(qty));
      }

      JsonNode stats = DeltaLogFiles.stats(add);
      for (String kind : List.of("minValues", "maxValues", "nullCount")) {
        assertThat(names(stats.get(kind)))
            .as(kind)
            .containsExactlyInAnyOrder(
                physicalName(schema.get("id")),
                physicalName(qty),
                physicalName(info),
                physicalName(note));
        assertThat(names(stats.get(kind).get(physicalName(info))))
            .as(kind + " of info")
            .containsExactlyInAnyOrder(physicalName(label), physicalName(score));
      }
      assertThat(stats.get("nullCount").get(physicalName(note)).asLong()).isZero();
      assertThat(stats.get("minValues").get(physicalName(qty)).asLong())
          .isGreaterThan(Integer.MAX_VALUE);
    }
    assertThat(DeltaTableReader.readAll(table))
        .hasSize(30)
        .contains(EvolvingRows.v1Read(0), EvolvingRows.v2Read(29));
  }

  /** What another writer does to column {@code note} before the sink adds it again. */
  enum Change {
    DROP,
    RENAME
  }

  @ParameterizedTest(name = "after a {0}")
  @EnumSource(Change.class)
  void aColumnAddedAgainAfterItWasDroppedOrRenamedIsANewColumn(Change change) throws Exception {
    String table = dir.resolve("again-" + change).toUri().toString();
    EvolvingRows.writeInBatch(FLINK, V1, sink(table, V1).build(), 0, 10);
    EvolvingRows.writeInBatch(
        FLINK, V2, sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build(), 10, 10);
    try (DeltaTable other = TestTables.open(table)) {
      List<StructField> fields = new ArrayList<>();
      for (StructField field : other.snapshot().getSchema().fields()) {
        if (!field.getName().equals("note")) {
          fields.add(field);
        } else if (change == Change.RENAME) {
          fields.add(
              new StructField(
                  "memo", field.getDataType(), field.isNullable(), field.getMetadata()));
        }
      }
      other.metadata().evolveSchema(new StructType(fields), false);
    }

    // The sink adds 'note' again: a column of its own, which no file written before holds.
    EvolvingRows.writeInBatch(
        FLINK, V2, sink(table, V2).schemaEvolution(SchemaEvolution.WIDEN).build(), 20, 10);

    StructType schema = DeltaLogFiles.snapshot(table).getSchema();
    List<String> physicalNames = new ArrayList<>();
    schema.fields().forEach(f -> physicalNames.add(physicalName(f)));
    assertThat(physicalNames).doesNotHaveDuplicates();
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < 30; i++) {
      List<Object> row = new ArrayList<>(i < 10 ? EvolvingRows.v1Read(i) : EvolvingRows.v2Read(i));
      // 'note' of the rows written before it was added again is null...
      row.set(4, i < 20 ? null : EvolvingRows.note(i));
      if (change == Change.RENAME) {
        // ...and 'memo' keeps what they wrote, and only that.
        row.add(4, i >= 10 && i < 20 ? EvolvingRows.note(i) : null);
      }
      expected.add(row);
    }
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static String physicalName(StructField field) {
    return field.getMetadata().getString(PHYSICAL_NAME);
  }

  private static int id(StructField field) {
    FieldMetadata metadata = field.getMetadata();
    return Math.toIntExact(metadata.getLong(FIELD_ID));
  }

  private static DeltaSinkBuilder sink(String table, RowType type) {
    return DeltaSink.builder().tablePath(table).rowType(type).partitionColumns("bucket");
  }
}
