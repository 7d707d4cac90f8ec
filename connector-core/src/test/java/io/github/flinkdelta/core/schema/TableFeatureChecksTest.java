/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import static io.github.flinkdelta.core.testing.FeatureTables.array;
import static io.github.flinkdelta.core.testing.FeatureTables.field;
import static io.github.flinkdelta.core.testing.FeatureTables.legacyProtocol;
import static io.github.flinkdelta.core.testing.FeatureTables.readerWriterFeatures;
import static io.github.flinkdelta.core.testing.FeatureTables.struct;
import static io.github.flinkdelta.core.testing.FeatureTables.writerFeatures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.types.StringType;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.FeatureTables;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which table features {@link TableFeatureChecks} refuses and how it names them, on tables whose
 * first commit is written by hand and loads in Kernel.
 */
class TableFeatureChecksTest {

  private static final LogicalType STRING = new VarCharType(VarCharType.MAX_LENGTH);
  private static final RowType ID_TEXT = rows("id", new BigIntType(), "text", STRING);

  @TempDir Path dir;

  @Test
  void aCheckConstraintIsRefusedWithItsNameAndExpression() throws Exception {
    Snapshot snapshot =
        table(
            "constraint",
            writerFeatures("checkConstraints"),
            idText(),
            Map.of("delta.constraints.positive_id", "id > 0"));

    assertThatThrownBy(() -> TableFeatureChecks.check("t", snapshot, ID_TEXT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot write Delta table t")
        .hasMessageContaining("checkConstraints: CHECK constraint 'positive_id' (id > 0)")
        .hasMessageContaining("ALTER TABLE <table> DROP CONSTRAINT positive_id");
  }

  @Test
  void anInvariantOfALegacyWriterVersionIsRefusedWithItsColumnAndExpression() throws Exception {
    // Writer version 2 has invariants without a feature list (PROTOCOL.md, Column Invariants).
    Snapshot snapshot =
        table(
            "invariant",
            legacyProtocol(1, 2),
            idText(
                field(
                    "score",
                    "integer",
                    Map.of("delta.invariants", "{\"expression\":{\"expression\":\"score > 3\"}}"))),
            Map.of());

    assertThatThrownBy(
            () ->
                TableFeatureChecks.check(
                    "t",
                    snapshot,
                    rows("id", new BigIntType(), "text", STRING, "score", new IntType())))
        .hasMessageContaining("invariants: column 'score' has the invariant score > 3");
  }

  @Test
  void aGeneratedColumnIsRefusedWithItsExpression() throws Exception {
    Snapshot snapshot =
        table(
            "generated",
            writerFeatures("generatedColumns"),
            idText(
                field(
                    "text_length",
                    "integer",
                    Map.of("delta.generationExpression", "length(text)"))),
            Map.of());

    assertThatThrownBy(
            () ->
                TableFeatureChecks.check(
                    "t",
                    snapshot,
                    rows("id", new BigIntType(), "text", STRING, "text_length", new IntType())))
        .hasMessageContaining(
            "generatedColumns: column 'text_length' is generated as length(text)");
  }

  @Test
  void anIdentityColumnIsRefusedWithItsStartAndStep() throws Exception {
    Snapshot snapshot =
        table(
            "identity",
            writerFeatures("identityColumns"),
            idText(
                field(
                    "row_id",
                    "long",
                    Map.of(
                        "delta.identity.start", 100,
                        "delta.identity.step", 10,
                        "delta.identity.allowExplicitInsert", true))),
            Map.of());

    assertThatThrownBy(
            () ->
                TableFeatureChecks.check(
                    "t",
                    snapshot,
                    rows("id", new BigIntType(), "text", STRING, "row_id", new BigIntType())))
        .hasMessageContaining(
            "identityColumns: column 'row_id' is an identity column (start 100, step 10)");
  }

  @Test
  void variantColumnsAreRefusedAtTheTopAndInsideArrays() throws Exception {
    Snapshot snapshot =
        table(
            "variant",
            readerWriterFeatures("variantType"),
            idText(
                field("payload", "variant", Map.of()),
                field("events", array(struct(field("body", "variant", Map.of()))), Map.of())),
            Map.of());

    assertThatThrownBy(() -> TableFeatureChecks.check("t", snapshot, ID_TEXT))
        .hasMessageContaining("variantType: column 'payload' is of type variant")
        .hasMessageContaining("variantType: column 'events.element.body' is of type variant");
  }

  @Test
  void aColumnDefaultIsRefusedOnlyWhenTheRowsLackItsColumn() throws Exception {
    Snapshot snapshot = defaultsTable("defaults");
    RowType withoutDefaults = rows("id", new BigIntType(), "text", STRING);
    RowType withoutNestedDefault =
        rows(
            "id",
            new BigIntType(),
            "text",
            STRING,
            "status",
            STRING,
            "address",
            rows("street", STRING));
    // Matched by name in any case, at the top and within structs.
    RowType withDefaults =
        rows(
            "ID",
            new BigIntType(),
            "Text",
            STRING,
            "STATUS",
            STRING,
            "address",
            rows("Country", STRING));

    assertThatThrownBy(() -> TableFeatureChecks.check("t", snapshot, withoutDefaults))
        .hasMessageContaining(
            "allowColumnDefaults: column 'status' has the default 'new', but the rows have no"
                + " column 'status', so it would be written as null")
        .hasMessageContaining("'new' AS status")
        .hasMessageContaining("ALTER TABLE <table> ALTER COLUMN status DROP DEFAULT")
        .hasMessageContaining("column 'address.country' has the default 'NL'");
    assertThatThrownBy(() -> TableFeatureChecks.check("t", snapshot, withoutNestedDefault))
        .hasMessageContaining("column 'address.country' has the default 'NL'")
        .hasMessageNotContaining("column 'status'");
    assertThatCode(() -> TableFeatureChecks.check("t", snapshot, withDefaults))
        .doesNotThrowAnyException();
  }

  @Test
  void rowsThatSupplyEveryDefaultedColumnAreCommittedAndReadBackExactly() throws Exception {
    defaultsTable("defaults");
    String path = dir.resolve("defaults").toUri().toString();
    RowType type =
        rows(
            "id",
            new BigIntType(),
            "text",
            STRING,
            "status",
            STRING,
            "address",
            rows("country", STRING));
    List<RowData> written =
        List.of(
            GenericRowData.of(1L, text("a"), text("new"), GenericRowData.of(text("NL"))),
            GenericRowData.of(2L, text("b"), text("paid"), GenericRowData.of(text("DE"))));

    try (var table = TestTables.open(path)) {
      TableFeatureChecks.check(table.name(), table.snapshot(), type);
      List<DataFile> files = TestTables.writeFiles(path, type, List.of(), written);
      TestTables.committed(table.commit("app", 1, files));
    }

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(r -> CanonicalRows.of(r, type)).toList());
  }

  @Test
  void aCollatedColumnIsWrittenWithBinaryStatisticsAndKeepsItsCollation() throws Exception {
    // The collations RFC: writer feature "collations" (with "domainMetadata"), the collation in
    // "__COLLATIONS" of the field; UTF-8 binary statistics are allowed for collated columns.
    Snapshot snapshot =
        table(
            "collated",
            writerFeatures("collations", "domainMetadata"),
            idText(field("name", "string", Map.of("__COLLATIONS", Map.of("name", "ICU.de_DE")))),
            Map.of());
    RowType type = rows("id", new BigIntType(), "text", STRING, "name", STRING);
    String path = dir.resolve("collated").toUri().toString();
    List<RowData> written =
        List.of(
            GenericRowData.of(1L, text("x"), text("a")),
            GenericRowData.of(2L, text("y"), text("B")));

    TableFeatureChecks.check("t", snapshot, type);
    try (var table = TestTables.open(path)) {
      TestTables.committed(
          table.commit("app", 1, TestTables.writeFiles(path, type, List.of(), written)));
    }

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(r -> CanonicalRows.of(r, type)).toList());
    assertThat(load("collated").getSchema().get("name").getDataType())
        .isEqualTo(new StringType("ICU.de_DE"));
    JsonNode stats = addStats(dir.resolve("collated"), 1);
    assertThat(stats.path("minValues").path("name").asText()).isEqualTo("B");
    assertThat(stats.path("maxValues").path("name").asText()).isEqualTo("a");
  }

  @Test
  void aFeatureTheProtocolListsButTheMetadataDoesNotUseIsNoObstacle() throws Exception {
    Snapshot snapshot =
        table(
            "unused",
            writerFeatures(
                "checkConstraints",
                "generatedColumns",
                "identityColumns",
                "invariants",
                "allowColumnDefaults"),
            idText(),
            Map.of());

    assertThatCode(() -> TableFeatureChecks.check("t", snapshot, ID_TEXT))
        .doesNotThrowAnyException();
  }

  @Test
  void everyFeatureInTheWayIsListedInOneMessage() throws Exception {
    Snapshot snapshot =
        table(
            "several",
            readerWriterFeatures(
                "checkConstraints", "generatedColumns", "identityColumns", "variantType"),
            idText(
                field("doubled", "long", Map.of("delta.generationExpression", "id * 2")),
                field(
                    "row_id",
                    "long",
                    Map.of(
                        "delta.identity.start", 1,
                        "delta.identity.step", 1,
                        "delta.identity.allowExplicitInsert", false)),
                field("payload", "variant", Map.of())),
            Map.of("delta.constraints.a", "id > 0", "delta.constraints.b", "text IS NOT NULL"));
    RowType type =
        rows(
            "id",
            new BigIntType(),
            "text",
            STRING,
            "doubled",
            new BigIntType(),
            "row_id",
            new BigIntType());

    assertThatThrownBy(() -> TableFeatureChecks.check("t", snapshot, type))
        .hasMessageContaining("CHECK constraint 'a' (id > 0)")
        .hasMessageContaining("CHECK constraint 'b' (text IS NOT NULL)")
        .hasMessageContaining("generatedColumns: column 'doubled'")
        .hasMessageContaining("identityColumns: column 'row_id'")
        .hasMessageContaining("variantType: column 'payload'");
  }

  private Snapshot defaultsTable(String name) throws Exception {
    return table(
        name,
        writerFeatures("allowColumnDefaults"),
        idText(
            field("status", "string", Map.of("CURRENT_DEFAULT", "'new'")),
            field(
                "address",
                struct(field("country", "string", Map.of("CURRENT_DEFAULT", "'NL'"))),
                Map.of())),
        Map.of());
  }

  /** Writes the table's first commit by hand and loads it in Kernel. */
  private Snapshot table(
      String name, ObjectNode protocol, ObjectNode schema, Map<String, String> configuration)
      throws Exception {
    FeatureTables.create(dir.resolve(name), protocol, schema, configuration);
    Snapshot snapshot = load(name);
    assertThat(snapshot.getVersion()).isZero();
    return snapshot;
  }

  private Snapshot load(String name) {
    return TableManager.loadSnapshot(dir.resolve(name).toUri().toString())
        .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
  }

  /** The statistics of the one add action in version {@code version}. */
  private static JsonNode addStats(Path table, long version) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Path log = table.resolve("_delta_log").resolve(String.format("%020d.json", version));
    for (String line : Files.readAllLines(log)) {
      JsonNode add = json.readTree(line).get("add");
      if (add != null) {
        return json.readTree(add.get("stats").asText());
      }
    }
    throw new AssertionError("no add action in " + log);
  }

  private static ObjectNode idText(ObjectNode... more) {
    ObjectNode[] fields = new ObjectNode[more.length + 2];
    fields[0] = field("id", "long", Map.of());
    fields[1] = field("text", "string", Map.of());
    System.arraycopy(more, 0, fields, 2, more.length);
    return struct(fields);
  }

  /** A row type of (name, type) pairs. */
  private static RowType rows(Object... namesAndTypes) {
    LogicalType[] types = new LogicalType[namesAndTypes.length / 2];
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = (String) namesAndTypes[2 * i];
      types[i] = (LogicalType) namesAndTypes[2 * i + 1];
    }
    return RowType.of(types, names);
  }

  private static StringData text(String value) {
    return StringData.fromString(value);
  }
}
