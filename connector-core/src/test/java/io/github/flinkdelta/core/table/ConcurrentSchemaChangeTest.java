/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.schema.SchemaChangedException;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another writer changes the table's schema between the sink's build and its commit: the commit
 * follows changes that leave its files readable and refuses the others, naming what changed.
 */
class ConcurrentSchemaChangeTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new IntType(), new VarCharType(10)}, new String[] {"id", "name"});

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aColumnAddedAndATypeWidenedByAnotherWriterAreFollowed() throws IOException {
    String path = table("follow");
    try (DeltaTable sink = TestTables.open(path)) {
      FileLayout layout = sink.layoutFor(TYPE, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> files = write(path, layout, 1);

      try (DeltaTable other = TestTables.open(path)) {
        other
            .metadata()
            .evolveSchema(
                change(
                    other.snapshot().getSchema(),
                    fields -> {
                      fields.set(0, fields.get(0).withDataType(LongType.LONG));
                      fields.add(new StructField("extra", LongType.LONG, true));
                      return fields;
                    }),
                true);
      }

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactly(Arrays.asList(1L, "n1", null));
  }

  @Test
  void featuresAnotherWriterEnablesAreFollowed() throws IOException {
    String path = table("features");
    try (DeltaTable sink = TestTables.open(path)) {
      FileLayout layout = sink.layoutFor(TYPE, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> files = write(path, layout, 1);
      try (DeltaTable other = TestTables.open(path)) {
        other
            .metadata()
            .updateProperties(
                Map.of(
                    "delta.enableChangeDataFeed", "true", "delta.enableDeletionVectors", "true"));
      }

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
      assertThat(sink.snapshot().getTableProperties())
          .containsEntry("delta.enableChangeDataFeed", "true")
          .containsEntry("delta.enableDeletionVectors", "true");
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactly(Arrays.asList(1, "n1"));
  }

  @Test
  void aColumnDroppedUnderTheFilesFailsTheCommitNamingIt() throws IOException {
    String path = table("drop");
    try (DeltaTable sink = TestTables.open(path)) {
      FileLayout layout = sink.layoutFor(TYPE, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> files = write(path, layout, 1);
      try (DeltaTable other = TestTables.open(path)) {
        other
            .metadata()
            .evolveSchema(
                change(
                    other.snapshot().getSchema(),
                    fields -> {
                      fields.remove(1);
                      return fields;
                    }),
                true);
      }
      long before = DeltaTableReader.version(path);

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(outcome).isInstanceOf(CommitOutcome.Conflicted.class);
      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .hasMessageContaining("changed under the job")
          .hasMessageContaining(
              "column 'name' that the job writes was dropped from the table (or renamed)");
      assertThat(DeltaTableReader.version(path)).isEqualTo(before);
    }
  }

  @Test
  void aColumnRenamedUnderTheFilesFailsTheCommitNamingBothNames() throws IOException {
    String path = table("rename");
    try (DeltaTable sink = TestTables.open(path)) {
      FileLayout layout = sink.layoutFor(TYPE, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> files = write(path, layout, 1);
      try (DeltaTable other = TestTables.open(path)) {
        other
            .metadata()
            .evolveSchema(
                change(
                    other.snapshot().getSchema(),
                    fields -> {
                      StructField name = fields.get(1);
                      fields.set(
                          1,
                          new StructField(
                              "label", name.getDataType(), name.isNullable(), name.getMetadata()));
                      return fields;
                    }),
                true);
      }

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .hasMessageContaining("column 'name' was renamed to 'label'");
    }
  }

  @Test
  void aCommitRestartedAfterTheChangeChecksTheTableAsItIsNow() throws IOException {
    String path = table("restart");
    FileLayout layout;
    List<DataFile> files;
    try (DeltaTable sink = TestTables.open(path)) {
      layout = sink.layoutFor(TYPE, List.of());
      files = write(path, layout, 1);
    }
    try (DeltaTable other = TestTables.open(path)) {
      other
          .metadata()
          .evolveSchema(
              change(
                  other.snapshot().getSchema(),
                  fields -> {
                    fields.remove(0);
                    return fields;
                  }),
              true);
    }

    // A committer that starts after the change loads the changed table: no conflict to notice.
    try (DeltaTable restarted = TestTables.open(path)) {
      restarted.checkCommitsAgainst(layout);
      CommitOutcome outcome = restarted.commit("app", 1, files);

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .hasMessageContaining("column 'id' that the job writes was dropped");
    }
  }

  @Test
  void aColumnAnotherEngineMadeNotNullRefusesFilesWithNullsInIt() throws IOException {
    String path = table("not-null");
    try (DeltaTable sink = TestTables.open(path)) {
      FileLayout layout = sink.layoutFor(TYPE, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> withNull = write(path, layout, GenericRowData.of(1, null));
      List<DataFile> withoutNull = write(path, layout, 2);
      makeNotNull(path, "name");
      long before = DeltaTableReader.version(path);

      CommitOutcome refused = sink.commit("app", 1, withNull);

      assertThat(((CommitOutcome.Conflicted) refused).cause())
          .isInstanceOf(SchemaChangedException.class)
          .hasMessageContaining("'name' is NOT NULL in the table now")
          .hasMessageContaining(withNull.get(0).path())
          .hasMessageContaining("1 nulls")
          .hasMessageContaining("DROP NOT NULL");
      assertThat(DeltaTableReader.version(path)).isEqualTo(before);

      CommitOutcome committed = sink.commit("app", 2, withoutNull);

      assertThat(committed).isInstanceOf(CommitOutcome.Committed.class);
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactly(Arrays.asList(2, "n2"));
  }

  @Test
  void elementsAnotherEngineMadeNotNullRefuseFilesThatCannotTellTheyHoldNone() throws IOException {
    RowType type =
        RowType.of(
            new LogicalType[] {new IntType(), new ArrayType(new IntType())},
            new String[] {"id", "scores"});
    String path = dir.resolve("elements").toUri().toString();
    try (DeltaTable sink =
        TestTables.create(path, type, List.of(), Map.of("delta.columnMapping.mode", "name"))) {
      FileLayout layout = sink.layoutFor(type, List.of());
      sink.checkCommitsAgainst(layout);
      List<DataFile> files =
          write(path, layout, GenericRowData.of(1, new GenericArrayData(new Integer[] {1, null})));
      makeNotNull(path, "scores.element");

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .hasMessageContaining("'scores.element' is NOT NULL in the table now")
          .hasMessageContaining("make it nullable again");
    }
    assertThat(DeltaTableReader.readAll(path)).isEmpty();
  }

  /**
   * Commits a schema in which {@code column} (a column name, or a column's name and {@code
   * .element}) is NOT NULL, as an engine that allows tightening would; Kernel and Spark refuse it.
   */
  private static void makeNotNull(String path, String column) throws IOException {
    Path log = Path.of(java.net.URI.create(path)).resolve("_delta_log");
    long version = DeltaTableReader.version(path);
    ObjectNode metaData = null;
    for (long v = 0; v <= version; v++) {
      for (String line : Files.readAllLines(log.resolve(String.format("%020d.json", v)))) {
        JsonNode action = JSON.readTree(line);
        if (action.has("metaData")) {
          metaData = (ObjectNode) action.get("metaData");
        }
      }
    }
    ObjectNode schema = (ObjectNode) JSON.readTree(metaData.get("schemaString").asText());
    String[] parts = column.split("\\.");
    for (JsonNode field : schema.get("fields")) {
      if (field.get("name").asText().equals(parts[0])) {
        if (parts.length == 1) {
          ((ObjectNode) field).put("nullable", false);
        } else {
          ((ObjectNode) field.get("type")).put("containsNull", false);
        }
      }
    }
    metaData.put("schemaString", JSON.writeValueAsString(schema));
    ObjectNode commitInfo = JSON.createObjectNode();
    commitInfo.putObject("commitInfo").put("timestamp", System.currentTimeMillis());
    ObjectNode change = JSON.createObjectNode();
    change.set("metaData", metaData);
    Files.writeString(
        log.resolve(String.format("%020d.json", version + 1)),
        JSON.writeValueAsString(commitInfo) + "\n" + JSON.writeValueAsString(change) + "\n");
  }

  private String table(String name) {
    String path = dir.resolve(name).toUri().toString();
    try (DeltaTable table =
        TestTables.create(path, TYPE, List.of(), Map.of("delta.columnMapping.mode", "name"))) {
      table.metadata().evolveFor(TYPE, List.of(), SchemaEvolution.NONE, false);
    }
    return path;
  }

  private static List<DataFile> write(String path, FileLayout layout, int id) throws IOException {
    return write(path, layout, GenericRowData.of(id, StringData.fromString("n" + id)));
  }

  private static List<DataFile> write(String path, FileLayout layout, GenericRowData row)
      throws IOException {
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            layout,
            HadoopConfigurations.of(Map.of()),
            path,
            FileWriteOptions.from(new Configuration()),
            "w" + row.getField(0))) {
      writer.write(row);
      return writer.flush().toList();
    }
  }

  private static StructType change(StructType schema, UnaryOperator<List<StructField>> change) {
    List<StructField> fields = change.apply(new ArrayList<>(schema.fields()));
    return new StructType(fields);
  }
}
