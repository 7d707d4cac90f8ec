/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The add actions of a commit: each carries its file's statistics as the writer serialized them,
 * and partition write contexts kept from commit to commit follow a change of the table's schema.
 */
class AppendActionsTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new IntType(false), new DecimalType(38, 18), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "amount", "p"});
  private static final RowType WIDER =
      RowType.of(
          new LogicalType[] {
            new IntType(false),
            new DecimalType(38, 18),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "amount", "p", "note"});

  @TempDir Path dir;

  @Test
  void eachAddActionCarriesItsFilesStatisticsUnchanged() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    String wide = "12345678901234567890.123456789012345678";
    List<RowData> rows =
        List.of(row(1, wide, "a"), row(2, "-" + wide, "a"), row(3, "0.000000000000000001", "b"));
    List<DataFile> files = TestTables.writeFiles(path, TYPE, List.of("p"), rows);
    TestTables.open(path).commit("app", 1, files);

    Map<String, JsonNode> adds = adds(dir.resolve("t"), 1);
    assertThat(adds).hasSize(2);
    for (DataFile file : files) {
      JsonNode add = adds.get(file.path());
      assertThat(add.get("stats").asText()).isEqualTo(file.statsJson());
      assertThat(add.at("/partitionValues/p").asText()).isEqualTo(file.partitionValues().get("p"));
    }
    // Every decimal digit survives: nothing between the writer and the log reads them as doubles.
    String stats = adds.get(fileOf(files, "a").path()).get("stats").asText();
    assertThat(stats).contains("\"amount\":" + wide + "}");
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());
  }

  @Test
  void partitionContextsKeptAcrossCommitsFollowASchemaChange() throws Exception {
    String path = dir.resolve("evolving").toUri().toString();
    List<RowData> first = List.of(row(1, "1", "a"), row(2, "2", "b"));
    DeltaTable table =
        TestTables.create(path, TYPE, List.of("p"), Map.of("delta.columnMapping.mode", "name"));
    table.commit("app", 1, TestTables.writeFiles(path, TYPE, List.of("p"), first));

    table.metadata().addColumns(List.of(new StructField("note", StringType.STRING, true)));
    List<RowData> second =
        List.of(
            GenericRowData.of(3, decimal("3"), s("a"), s("x")),
            GenericRowData.of(4, decimal("4"), s("c"), null));
    List<DataFile> files = TestTables.writeFiles(path, WIDER, List.of("p"), second);
    table.commit("app", 2, files);

    Map<String, JsonNode> adds = adds(dir.resolve("evolving"), 3);
    // Column mapping names partition values by physical column name.
    for (DataFile file : files) {
      JsonNode add = adds.get(file.path());
      assertThat(add.get("partitionValues").elements().next().asText())
          .isEqualTo(file.partitionValues().values().iterator().next());
      assertThat(add.get("stats").asText()).isEqualTo(file.statsJson());
    }
    List<List<Object>> expected = new ArrayList<>();
    for (RowData row : first) {
      List<Object> values = new ArrayList<>(CanonicalRows.of(row, TYPE));
      values.add(null);
      expected.add(values);
    }
    second.forEach(row -> expected.add(CanonicalRows.of(row, WIDER)));
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** The add actions of one version, by file path. */
  private static Map<String, JsonNode> adds(Path table, long version) throws Exception {
    Path log = table.resolve("_delta_log").resolve(String.format("%020d.json", version));
    ObjectMapper json = new ObjectMapper();
    Map<String, JsonNode> adds = new HashMap<>();
    for (String line : Files.readAllLines(log)) {
      JsonNode add = json.readTree(line).get("add");
      if (add != null) {
        adds.put(add.get("path").asText(), add);
      }
    }
    return adds;
  }

  private static DataFile fileOf(List<DataFile> files, String partition) {
    return files.stream()
        .filter(f -> partition.equals(f.partitionValues().get("p")))
        .findFirst()
        .orElseThrow();
  }

  private static RowData row(int id, String amount, String partition) {
    return GenericRowData.of(id, decimal(amount), s(partition));
  }

  private static DecimalData decimal(String value) {
    return DecimalData.fromBigDecimal(new BigDecimal(value), 38, 18);
  }

  private static StringData s(String value) {
    return value == null ? null : StringData.fromString(value);
  }
}
