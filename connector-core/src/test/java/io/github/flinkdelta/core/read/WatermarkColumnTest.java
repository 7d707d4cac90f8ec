/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableHistory;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file's least timestamp, as the source orders files and emits watermarks by it: the least value
 * its rows hold, truncated to milliseconds, from the statistics of snapshot scans and of commits,
 * under every column mapping mode.
 */
class WatermarkColumnTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new IntType(),
            new LocalZonedTimestampType(6),
            new TimestampType(6)
          },
          new String[] {"id", "bucket", "at", "local_at"});

  private final Configuration conf = HadoopConfigurations.of(Map.of());
  private final Engine engine = DefaultEngine.create(conf);

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"none", "name", "id"})
  void eachFileHasTheLeastTimestampItsRowsHold(String mode) throws Exception {
    String path = dir.resolve(mode).toUri().toString();
    try (DeltaTable table =
        TestTables.create(
            path, TYPE, List.of("bucket"), Map.of("delta.columnMapping.mode", mode))) {
      // Two versions of three files each; times fall within each file out of order, with
      // microseconds that truncate, and one bucket's rows have no time at all in version 2.
      for (int version = 1; version <= 2; version++) {
        List<RowData> rows = new ArrayList<>();
        for (long id = 0; id < 90; id++) {
          long micros = 1_700_000_000_000_000L + version * 10_000_000L + (id * 7919 % 90) * 1_001L;
          boolean noTime = version == 2 && id % 3 == 2;
          TimestampData at =
              noTime
                  ? null
                  : TimestampData.fromEpochMillis(
                      Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
          rows.add(GenericRowData.of(id, (int) (id % 3), at, at));
        }
        table.commit("app", version, TestTables.writeFiles(path, TYPE, List.of("bucket"), rows));
      }
      Snapshot snapshot = table.reload();
      ReadColumns columns = ReadColumns.of(path, snapshot, List.of());

      for (String name : List.of("at", "local_at")) {
        WatermarkColumn column =
            WatermarkColumn.of(
                path, snapshot.getSchema(), snapshot.getPartitionColumnNames(), name);
        List<ReadFile> scanned = SnapshotFiles.of(engine, snapshot, Optional.empty(), column, path);
        List<ReadFile> committed = new ArrayList<>();
        TableChanges.of(engine, new PathTableHistory(path).commits(engine, 1, 2), path, column)
            .forEach(change -> committed.addAll(change.added()));

        Map<String, Long> leastByFile = new HashMap<>();
        for (ReadFile file : scanned) {
          leastByFile.put(file.path(), leastMillis(columns, file, columns.names().indexOf(name)));
        }
        assertThat(scanned).hasSize(6);
        assertThat(leastByFile.values()).containsOnlyOnce(WatermarkColumn.UNKNOWN);
        assertThat(scanned)
            .as("snapshot files of column %s", name)
            .allSatisfy(f -> assertThat(f.minTimestamp()).isEqualTo(leastByFile.get(f.path())));
        assertThat(committed)
            .as("committed files of column %s", name)
            .hasSize(6)
            .allSatisfy(f -> assertThat(f.minTimestamp()).isEqualTo(leastByFile.get(f.path())));
      }
      assertThat(SnapshotFiles.of(engine, snapshot, Optional.empty(), path))
          .as("without a watermark column")
          .allSatisfy(f -> assertThat(f.minTimestamp()).isEqualTo(WatermarkColumn.UNKNOWN));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"id", "bucket", "missing"})
  void aColumnWithoutTimestampStatisticsIsRefusedNamingIt(String name) throws Exception {
    String path = dir.resolve("refused").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of("bucket"), Map.of())) {
      Snapshot snapshot = table.reload();

      assertThatThrownBy(
              () ->
                  WatermarkColumn.of(
                      "t_events", snapshot.getSchema(), snapshot.getPartitionColumnNames(), name))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("t_events")
          .hasMessageContaining(name)
          .hasMessageContaining(
              switch (name) {
                case "id" -> "TIMESTAMP or TIMESTAMP_NTZ";
                case "bucket" -> "partition column";
                default -> "no column";
              });
    }
  }

  /** The least time the file's rows hold, in epoch milliseconds, or UNKNOWN when none has one. */
  private long leastMillis(ReadColumns columns, ReadFile file, int index) throws Exception {
    long least = WatermarkColumn.UNKNOWN;
    boolean any = false;
    try (FileRows rows = FileRows.open(engine, conf, columns, file, 0)) {
      while (rows.next()) {
        if (!rows.row().isNullAt(index)) {
          long millis = rows.row().getTimestamp(index, 6).getMillisecond();
          least = any ? Math.min(least, millis) : millis;
          any = true;
        }
      }
    }
    return least;
  }
}
