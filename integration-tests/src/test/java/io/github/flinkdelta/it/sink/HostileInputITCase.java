/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that breaks writers, through a checkpointed job, read back value for value: strings and
 * binaries of megabytes, NaN and infinities, extreme decimals, empty and null collections, rows
 * nested twelve deep, and partition values that need escaping. The statistics stay within the
 * protocol: cut strings, NaN as the maximum.
 */
class HostileInputITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int DEPTH = 12;
  private static final List<String> PARTITIONS =
      Arrays.asList("plain", "a/b", "x=y", "100%", " spaced ", "ünïcödé ✓", "#?&:*\"<>|\\", null);

  @TempDir Path dir;

  @Test
  void hostileValuesRoundTripAndKeepStatisticsWithinTheProtocol() throws Exception {
    RowType type = rowType();
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      rows.add(row(i));
    }
    String table = dir.resolve("hostile").toUri().toString();

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    env.fromData(rows, InternalTypeInfo.of(type))
        .rebalance()
        .sinkTo(
            // Without column mapping, statistics and footers use the column names read below.
            DeltaSink.builder()
                .tablePath(table)
                .rowType(type)
                .partitionColumns("part")
                .tableProperty("delta.columnMapping.mode", "none")
                .build());
    env.execute("hostile input");

    List<List<Object>> expected = new ArrayList<>();
    rows.forEach(r -> expected.add(CanonicalRows.of(r, type)));
    List<List<Object>> actual = DeltaTableReader.readAll(table);
    assertThat(actual).hasSize(rows.size()).containsExactlyInAnyOrderElementsOf(expected);

    List<JsonNode> stats = statistics(dir.resolve("hostile"));
    assertThat(stats).anyMatch(s -> s.at("/maxValues/big").asText().startsWith("zzzz"));
    for (JsonNode s : stats) {
      if (s.has("maxValues") && s.get("maxValues").has("big")) {
        // Strings are cut to 32 characters in statistics (plus U+10FFFF on a cut maximum).
        assertThat(
                s.at("/maxValues/big")
                    .asText()
                    .codePointCount(0, s.at("/maxValues/big").asText().length()))
            .isLessThanOrEqualTo(33);
        assertThat(s.at("/minValues/big").asText().length()).isLessThanOrEqualTo(32);
      }
    }
    assertThat(stats).anyMatch(s -> "NaN".equals(s.at("/maxValues/d").asText()));
    assertThat(stats).anyMatch(s -> "-Infinity".equals(s.at("/minValues/d").asText()));
  }

  private static RowType rowType() {
    return RowType.of(
        new LogicalType[] {
          new BigIntType(false),
          new VarCharType(VarCharType.MAX_LENGTH),
          new VarCharType(VarCharType.MAX_LENGTH),
          new VarBinaryType(VarBinaryType.MAX_LENGTH),
          new DoubleType(),
          new FloatType(),
          new DecimalType(38, 0),
          new DecimalType(38, 18),
          new ArrayType(new VarCharType(VarCharType.MAX_LENGTH)),
          new MapType(new VarCharType(false, VarCharType.MAX_LENGTH), new IntType()),
          nested(DEPTH)
        },
        new String[] {
          "id", "part", "big", "blob", "d", "f", "dec", "dec18", "tags", "attrs", "deep"
        });
  }

  /** ROW<v INT, next ROW<v INT, next ...>>, {@code depth} levels. */
  private static LogicalType nested(int depth) {
    if (depth == 1) {
      return RowType.of(new LogicalType[] {new IntType()}, new String[] {"v"});
    }
    return RowType.of(
        new LogicalType[] {new IntType(), nested(depth - 1)}, new String[] {"v", "next"});
  }

  private static RowData row(int i) {
    double[] doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 1.5};
    float[] floats = {Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, 0f};
    BigDecimal max = new BigDecimal("9".repeat(38));
    BigDecimal fraction = new BigDecimal("99999999999999999999.999999999999999999");
    String big = i % 8 == 0 ? "z".repeat(8 * 1024 * 1024) + i : "s" + i + "\u0000\uD83D\uDE00";
    byte[] blob = new byte[i % 8 == 1 ? 4 * 1024 * 1024 : i];
    Arrays.fill(blob, (byte) (i - 128));
    return GenericRowData.of(
        (long) i,
        string(PARTITIONS.get(i % PARTITIONS.size())),
        string(big),
        blob,
        doubles[i % doubles.length],
        floats[i % floats.length],
        DecimalData.fromBigDecimal(i % 2 == 0 ? max : max.negate(), 38, 0),
        DecimalData.fromBigDecimal(i % 3 == 0 ? fraction : fraction.negate(), 38, 18),
        tags(i),
        attrs(i),
        deep(i, DEPTH));
  }

  private static GenericArrayData tags(int i) {
    return switch (i % 3) {
      case 0 -> null;
      case 1 -> new GenericArrayData(new Object[0]);
      default -> new GenericArrayData(new Object[] {string("t" + i), null, string("")});
    };
  }

  private static GenericMapData attrs(int i) {
    if (i % 3 == 0) {
      return new GenericMapData(new HashMap<>());
    }
    Map<Object, Object> map = new HashMap<>();
    map.put(string("k" + i), i % 2 == 0 ? null : i);
    return i % 3 == 1 ? null : new GenericMapData(map);
  }

  private static GenericRowData deep(int i, int depth) {
    if (depth == 1) {
      return GenericRowData.of(i);
    }
    return GenericRowData.of(
        depth % 4 == 0 ? null : i * depth, i % 5 == depth % 5 ? null : deep(i, depth - 1));
  }

  private static StringData string(String value) {
    return value == null ? null : StringData.fromString(value);
  }

  /** The statistics of every add action in the table's log. */
  private static List<JsonNode> statistics(Path table) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> stats = new ArrayList<>();
    try (Stream<Path> commits = Files.list(table.resolve("_delta_log"))) {
      for (Path commit : commits.filter(p -> p.toString().endsWith(".json")).toList()) {
        for (String line : Files.readAllLines(commit)) {
          JsonNode add = json.readTree(line).get("add");
          if (add != null && add.hasNonNull("stats")) {
            stats.add(json.readTree(add.get("stats").asText()));
          }
        }
      }
    }
    return stats;
  }
}
