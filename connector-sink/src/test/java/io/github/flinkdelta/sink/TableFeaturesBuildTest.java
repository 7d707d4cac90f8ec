/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import static io.github.flinkdelta.core.testing.FeatureTables.field;
import static io.github.flinkdelta.core.testing.FeatureTables.legacyProtocol;
import static io.github.flinkdelta.core.testing.FeatureTables.readerWriterFeatures;
import static io.github.flinkdelta.core.testing.FeatureTables.struct;
import static io.github.flinkdelta.core.testing.FeatureTables.writerFeatures;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.FeatureTables;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link DeltaSinkBuilder#build()} refuses a table with a feature the sink cannot honour, naming
 * the feature and its column or constraint, before anything is committed.
 */
class TableFeaturesBuildTest {

  private static final ObjectNode ID = field("id", "long", Map.of());
  private static final RowType ID_ROWS =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  @TempDir Path dir;

  static Stream<Arguments> refusedFeatures() {
    return Stream.of(
        Arguments.of(
            "checkConstraints",
            writerFeatures("checkConstraints"),
            struct(ID),
            Map.of("delta.constraints.positive", "id > 0"),
            "checkConstraints: CHECK constraint 'positive' (id > 0)"),
        Arguments.of(
            "invariants",
            legacyProtocol(1, 2),
            struct(
                field(
                    "id",
                    "long",
                    Map.of("delta.invariants", "{\"expression\":{\"expression\":\"id > 3\"}}"))),
            Map.of(),
            "invariants: column 'id' has the invariant id > 3"),
        Arguments.of(
            "generatedColumns",
            writerFeatures("generatedColumns"),
            struct(field("id", "long", Map.of("delta.generationExpression", "42"))),
            Map.of(),
            "generatedColumns: column 'id' is generated as 42"),
        Arguments.of(
            "identityColumns",
            writerFeatures("identityColumns"),
            struct(
                field(
                    "id",
                    "long",
                    Map.of(
                        "delta.identity.start", 1,
                        "delta.identity.step", 1,
                        "delta.identity.allowExplicitInsert", false))),
            Map.of(),
            "identityColumns: column 'id' is an identity column (start 1, step 1)"),
        Arguments.of(
            "variantType",
            readerWriterFeatures("variantType"),
            struct(ID, field("payload", "variant", Map.of())),
            Map.of(),
            "variantType: column 'payload' is of type variant"),
        Arguments.of(
            "allowColumnDefaults",
            writerFeatures("allowColumnDefaults"),
            struct(ID, field("status", "string", Map.of("CURRENT_DEFAULT", "'new'"))),
            Map.of(),
            "allowColumnDefaults: column 'status' has the default 'new', but the rows have no"
                + " column 'status'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedFeatures")
  void aTableWithTheFeatureIsRefusedAtBuildAndNothingIsCommitted(
      String feature,
      ObjectNode protocol,
      ObjectNode schema,
      Map<String, String> configuration,
      String named)
      throws Exception {
    String table = FeatureTables.create(dir.resolve(feature), protocol, schema, configuration);

    assertThatThrownBy(() -> DeltaSink.builder().tablePath(table).rowType(ID_ROWS).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot write Delta table " + table)
        .hasMessageContaining(named);
    assertNothingCommitted(feature);
  }

  @Test
  void everyFeatureInTheWayIsListedInOneMessage() throws Exception {
    String table =
        FeatureTables.create(
            dir.resolve("several"),
            writerFeatures("checkConstraints", "generatedColumns", "allowColumnDefaults"),
            struct(
                ID,
                field("doubled", "long", Map.of("delta.generationExpression", "id * 2")),
                field("level", "integer", Map.of("CURRENT_DEFAULT", "1"))),
            Map.of("delta.constraints.positive", "id > 0"));
    RowType rows =
        RowType.of(
            new LogicalType[] {new BigIntType(), new BigIntType(), new IntType()},
            new String[] {"id", "doubled", "other"});

    assertThatThrownBy(() -> DeltaSink.builder().tablePath(table).rowType(rows).build())
        .hasMessageContaining("checkConstraints: CHECK constraint 'positive' (id > 0)")
        .hasMessageContaining("generatedColumns: column 'doubled' is generated as id * 2")
        .hasMessageContaining("allowColumnDefaults: column 'level' has the default 1")
        // The rows differ from the table too, but the features come first.
        .hasMessageNotContaining("of the rows is not in the table");
    assertNothingCommitted("several");
  }

  @Test
  void aJobThatSuppliesTheDefaultedColumnIsBuilt() throws Exception {
    String table =
        FeatureTables.create(
            dir.resolve("defaults"),
            writerFeatures("allowColumnDefaults"),
            struct(ID, field("status", "string", Map.of("CURRENT_DEFAULT", "'new'"))),
            Map.of());
    RowType rows =
        RowType.of(
            new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "STATUS"});

    assertThat(DeltaSink.builder().tablePath(table).rowType(rows).build()).isNotNull();
  }

  /** The table is still at version 0 and its log holds nothing but the first commit. */
  private void assertNothingCommitted(String name) {
    assertThat(DeltaTableReader.version(dir.resolve(name).toUri().toString())).isZero();
    assertThat(new File(dir.resolve(name).resolve("_delta_log").toUri()).list())
        .containsExactly("00000000000000000000.json");
  }
}
