/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partition values that need escaping in paths are written and read back unchanged. */
class PartitionValuesTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new IntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DateType(),
            new TimestampType(6),
            new LocalZonedTimestampType(6)
          },
          new String[] {"id", "p_str", "p_date", "p_ts", "p_ltz"});

  @TempDir Path dir;

  @Test
  void awkwardPartitionValuesReadBackEqual() throws Exception {
    String[] values = {
      "a/b", "k=v", "100%", "with space", "ünï©ødé 日本語 \uD83D\uDE00", "q?#*:[]{}^\\'\"", null
    };
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      rows.add(
          GenericRowData.of(
              i,
              values[i] == null ? null : StringData.fromString(values[i]),
              i % 2 == 0 ? null : -3000 + i,
              TimestampData.fromEpochMillis(-86_400_000L * i, i * 1000),
              TimestampData.fromEpochMillis(1_700_000_000_123L + i)));
    }
    String path = dir.resolve("partitions").toUri().toString();
    List<String> partitions = List.of("p_str", "p_date", "p_ts", "p_ltz");
    List<DataFile> files = TestTables.writeFiles(path, TYPE, partitions, rows);
    TestTables.open(path).commit("app", 1, files);

    assertThat(files).hasSize(values.length);
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());
    // Each file sits in its own Hive-style partition directory below the table root.
    try (var walk = Files.walk(dir.resolve("partitions"))) {
      assertThat(walk.filter(p -> p.toString().endsWith(".parquet")).count())
          .isEqualTo(values.length);
    }
    assertThat(Files.isDirectory(dir.resolve("partitions/p_str=a%2Fb"))).isTrue();
    assertThat(Files.isDirectory(dir.resolve("partitions/p_str=__HIVE_DEFAULT_PARTITION__")))
        .isTrue();
  }

  @Test
  void filesOfInterleavedPartitionsCommitEachWithItsOwnValues() throws Exception {
    String path = dir.resolve("interleaved").toUri().toString();
    List<String> partitions = List.of("p_str", "p_date", "p_ts", "p_ltz");
    List<RowData> rows = new ArrayList<>();
    List<DataFile> files = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      List<RowData> batch = new ArrayList<>();
      for (int p = 0; p < 3; p++) {
        batch.add(
            GenericRowData.of(
                round * 10 + p,
                StringData.fromString("p" + p),
                p,
                TimestampData.fromEpochMillis(0),
                TimestampData.fromEpochMillis(0)));
      }
      rows.addAll(batch);
      files.addAll(TestTables.writeFiles(path, TYPE, partitions, batch));
    }
    assertThat(files).hasSize(6);
    for (int i = 1; i < files.size(); i++) {
      assertThat(files.get(i).partitionValues())
          .as("neighbouring files of different partitions")
          .isNotEqualTo(files.get(i - 1).partitionValues());
    }

    TestTables.open(path).commit("app", 1, DataFiles.of(files));

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());
  }
}
