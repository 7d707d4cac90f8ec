/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.testing.IdTextTables;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta statistics gathered while writing: min, max and null counts, nested and truncated. */
class StatisticsTest {

  private static final RowType INNER =
      RowType.of(new LogicalType[] {new IntType(), new VarCharType(100)}, new String[] {"a", "b"});
  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new IntType(), new VarCharType(1000), new DoubleType(), INNER},
          new String[] {"id", "text", "score", "inner"});

  @TempDir Path dir;

  @Test
  void minMaxAndNullCountPerColumnIncludingNestedFields() throws Exception {
    String longA = "a".repeat(40);
    String longZ = "z".repeat(31) + "\uD83D\uDE00" + "tail";
    List<RowData> rows =
        List.of(
            GenericRowData.of(5, s(longA), 1.5, GenericRowData.of(10, s("x"))),
            GenericRowData.of(-3, s(longZ), -2.0, null),
            GenericRowData.of(null, null, null, GenericRowData.of(null, s("y"))),
            GenericRowData.of(7, s("m"), 0.0, GenericRowData.of(-4, null)));

    JsonNode stats = stats(rows);

    assertThat(stats.get("numRecords").asLong()).isEqualTo(4);
    assertThat(stats.at("/minValues/id").asInt()).isEqualTo(-3);
    assertThat(stats.at("/maxValues/id").asInt()).isEqualTo(7);
    assertThat(stats.at("/nullCount/id").asLong()).isEqualTo(1);
    assertThat(stats.at("/minValues/score").asDouble()).isEqualTo(-2.0);
    assertThat(stats.at("/maxValues/score").asDouble()).isEqualTo(1.5);

    // Strings are cut to 32 characters; a cut maximum gets U+10FFFF appended.
    assertThat(stats.at("/minValues/text").asText()).isEqualTo("a".repeat(32));
    assertThat(stats.at("/maxValues/text").asText())
        .isEqualTo("z".repeat(31) + "\uD83D\uDE00" + new String(Character.toChars(0x10FFFF)));
    assertThat(stats.at("/nullCount/text").asLong()).isEqualTo(1);

    // A null struct counts as a null in each of its fields.
    assertThat(stats.at("/minValues/inner/a").asInt()).isEqualTo(-4);
    assertThat(stats.at("/maxValues/inner/a").asInt()).isEqualTo(10);
    assertThat(stats.at("/nullCount/inner/a").asLong()).isEqualTo(2);
    assertThat(stats.at("/nullCount/inner/b").asLong()).isEqualTo(2);
    assertThat(stats.at("/maxValues/inner/b").asText()).isEqualTo("y");
  }

  @Test
  void aCutMaximumFollowsValuesSharingItsPrefix() throws Exception {
    String p32 = "p".repeat(32);
    String q32 = "p".repeat(31) + "q";
    String marker = new String(Character.toChars(0x10FFFF));
    // Values extending a cut maximum keep it; a larger prefix replaces it, cut or not.
    assertThat(maxText(p32 + "1", p32 + "9", p32 + "5")).isEqualTo(p32 + marker);
    assertThat(maxText(p32 + "1", q32, p32 + "9")).isEqualTo(q32);
    assertThat(maxText(p32 + "1", q32, p32 + "9", q32 + "x")).isEqualTo(q32 + marker);
    assertThat(maxText(q32, q32 + "x", q32 + "a")).isEqualTo(q32 + marker);
  }

  private String maxText(String... texts) throws Exception {
    List<RowData> rows = new java.util.ArrayList<>();
    for (String text : texts) {
      rows.add(GenericRowData.of(1, s(text), 0.0, null));
    }
    return stats(rows).at("/maxValues/text").asText();
  }

  @Test
  void stringRangesSpanEveryRowGroupOfTheFile() throws Exception {
    // Row groups of about a hundred rows: the largest text sits in the first, the smallest in a
    // later one, and one row group holds no text at all.
    List<RowData> rows = new java.util.ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      String text =
          i == 5
              ? "z-largest"
              : i == 750 ? "a-smallest" : i >= 300 && i < 450 ? null : "m-" + (1_000 + i);
      rows.add(GenericRowData.of(i, s(text), (double) i, null));
    }
    org.apache.flink.configuration.Configuration options =
        new org.apache.flink.configuration.Configuration();
    options.set(TableWriteOptions.ROW_GROUP_SIZE, MemorySize.parse("1kb"));
    Path table = dir.resolve("groups");
    List<DataFile> files =
        TestTables.writeFiles(table.toUri().toString(), TYPE, List.of(), rows, options);

    assertThat(files).hasSize(1);
    List<BlockMetaData> groups = IdTextTables.footer(table, files.get(0)).getBlocks();
    assertThat(groups).hasSizeGreaterThan(3);
    assertThat(groups.get(0).getRowCount()).isLessThan(300);
    JsonNode stats = new ObjectMapper().readTree(files.get(0).statsJson());
    assertThat(stats.at("/minValues/text").asText()).isEqualTo("a-smallest");
    assertThat(stats.at("/maxValues/text").asText()).isEqualTo("z-largest");
    assertThat(stats.at("/nullCount/text").asLong()).isEqualTo(150);
    assertThat(stats.at("/numRecords").asLong()).isEqualTo(1_000);
  }

  @Test
  void nanIsTheMaximumAndInfinitiesAreOrdinaryValues() throws Exception {
    List<RowData> rows =
        List.of(
            GenericRowData.of(1, s("a"), Double.NaN, null),
            GenericRowData.of(2, s("b"), Double.NEGATIVE_INFINITY, null),
            GenericRowData.of(3, s("c"), 4.0, null));

    JsonNode stats = stats(rows);

    assertThat(stats.at("/minValues/score").asText()).isEqualTo("-Infinity");
    assertThat(stats.at("/maxValues/score").asText()).isEqualTo("NaN");
  }

  @Test
  void statisticsColumnsFollowTheTableProperty() throws Exception {
    String path = dir.resolve("limited").toUri().toString();
    TestTables.create(
        path, TYPE, List.of(), java.util.Map.of("delta.dataSkippingNumIndexedCols", "2"));
    List<DataFile> files =
        TestTables.writeFiles(
            path, TYPE, List.of(), List.of(GenericRowData.of(1, s("t"), 2.0, null)));
    JsonNode stats = new ObjectMapper().readTree(files.get(0).statsJson());
    assertThat(stats.at("/minValues/id").asInt()).isEqualTo(1);
    assertThat(stats.at("/minValues/text").asText()).isEqualTo("t");
    assertThat(stats.at("/minValues/score").isMissingNode()).isTrue();
    assertThat(stats.at("/nullCount/score").isMissingNode()).isTrue();
  }

  private JsonNode stats(List<RowData> rows) throws Exception {
    String path = dir.resolve("t").toUri().toString();
    List<DataFile> files = TestTables.writeFiles(path, TYPE, List.of(), rows);
    assertThat(files).hasSize(1);
    return new ObjectMapper().readTree(files.get(0).statsJson());
  }

  private static StringData s(String value) {
    return value == null ? null : StringData.fromString(value);
  }
}
