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
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the source reads of a table: the files a filter leaves (partition pruning and statistics,
 * counted), their rows as Kernel's own reader reads them, in tables with column mapping and with
 * columns added after files were written.
 */
class TableReadTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "text"});

  private final Configuration conf = HadoopConfigurations.of(Map.of());
  private final Engine engine = DefaultEngine.create(conf);

  @TempDir Path dir;

  @Test
  void partitionValuesAndStatisticsLeaveOutTheFilesAFilterRulesOut() throws Exception {
    String path = dir.resolve("filtered").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of("bucket"), Map.of())) {
      // Three versions of three files each (one per bucket); version k holds ids 100k to 100k+99.
      for (int k = 0; k < 3; k++) {
        List<RowData> rows = new ArrayList<>();
        for (long id = 100L * k; id < 100L * k + 100; id++) {
          rows.add(GenericRowData.of(id, (int) (id % 3), StringData.fromString("t" + id)));
        }
        table.commit("app", k + 1, TestTables.writeFiles(path, TYPE, List.of("bucket"), rows));
      }
      Snapshot snapshot = table.reload();

      assertThat(files(snapshot, null)).hasSize(9);
      assertThat(files(snapshot, new Predicate("=", new Column("bucket"), Literal.ofInt(1))))
          .as("partition pruning")
          .hasSize(3)
          .allMatch(file -> file.partitionValues().containsValue("1"));
      Predicate late = new Predicate(">=", new Column("id"), Literal.ofLong(250));
      assertThat(files(snapshot, late)).as("data skipping on statistics").hasSize(3);
      Predicate both =
          new Predicate("AND", late, new Predicate("=", new Column("bucket"), Literal.ofInt(1)));
      List<ReadFile> one = files(snapshot, both);
      assertThat(one).hasSize(1);

      ReadColumns columns = ReadColumns.of(path, snapshot, List.of());
      RowFilter filter = RowFilter.of(ReadFilter.of(both), columns);
      List<List<Object>> read = new ArrayList<>();
      for (ReadFile file : one) {
        try (FileRows rows = FileRows.open(engine, conf, columns, file, 0)) {
          while (rows.next()) {
            if (filter.keeps(rows.row())) {
              read.add(values(rows.row()));
            }
          }
        }
      }
      List<List<Object>> expected = new ArrayList<>();
      for (long id = 250; id < 300; id++) {
        if (id % 3 == 1) {
          expected.add(List.of(id, 1, "t" + id));
        }
      }
      assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @Test
  void aChangelogReadsTheRowsOfARemoveThatNamesNeitherSizeNorPartitionValues() throws Exception {
    String path = dir.resolve("bare-remove").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of("bucket"), Map.of())) {
      List<RowData> rows = new ArrayList<>();
      for (long id = 0; id < 4; id++) {
        rows.add(GenericRowData.of(id, 7, StringData.fromString("t" + id)));
      }
      var file = TestTables.writeFiles(path, TYPE, List.of("bucket"), rows).get(0);
      table.commit("app", 1, List.of(file));
      long version = table.reload().getVersion() + 1;
      // size and partitionValues are optional in a remove action (PROTOCOL.md): another writer
      // may leave them out.
      java.nio.file.Files.writeString(
          Path.of(java.net.URI.create(path))
              .resolve("_delta_log")
              .resolve(String.format("%020d.json", version)),
          "{\"remove\":{\"path\":\""
              + file.path()
              + "\",\"deletionTimestamp\":1,\"dataChange\":true}}\n");
      Snapshot snapshot = table.reload();

      List<VersionChange> changes =
          TableChanges.of(
              engine,
              new io.github.flinkdelta.core.catalog.PathTableHistory(path)
                  .commits(engine, version, version),
              snapshot.getPath(),
              null);
      ReadFile removed = changes.get(0).removed().get(0);
      assertThat(removed.size()).isEqualTo(-1);
      assertThat(removed.partitionValues()).containsEntry("bucket", "7");
      ReadColumns columns = ReadColumns.of(path, snapshot, List.of());
      List<List<Object>> read = new ArrayList<>();
      try (FileRows fileRows = FileRows.open(engine, conf, columns, removed, 0)) {
        while (fileRows.next()) {
          read.add(values(fileRows.row()));
        }
      }
      assertThat(read)
          .containsExactlyInAnyOrder(
              List.of(0L, 7, "t0"),
              List.of(1L, 7, "t1"),
              List.of(2L, 7, "t2"),
              List.of(3L, 7, "t3"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"name", "id"})
  void aColumnMappedTableWithAnAddedColumnReadsAsKernelReadsIt(String mode) throws Exception {
    String path = dir.resolve("mapped-" + mode).toUri().toString();
    try (DeltaTable table =
        TestTables.create(
            path, TYPE, List.of("bucket"), Map.of("delta.columnMapping.mode", mode))) {
      table.commit("app", 1, TestTables.writeFiles(path, TYPE, List.of("bucket"), rows(0, 20)));
      table.metadata().addColumns(List.of(new StructField("note", StringType.STRING, true)));
      RowType wider =
          RowType.of(
              new LogicalType[] {
                new BigIntType(false),
                new IntType(),
                new VarCharType(VarCharType.MAX_LENGTH),
                new VarCharType(VarCharType.MAX_LENGTH)
              },
              new String[] {"id", "bucket", "text", "note"});
      List<RowData> later = new ArrayList<>();
      for (long id = 20; id < 30; id++) {
        later.add(
            GenericRowData.of(
                id, (int) (id % 3), StringData.fromString("t" + id), StringData.fromString("n")));
      }
      table.commit("app", 2, TestTables.writeFiles(path, wider, List.of("bucket"), later));
      Snapshot snapshot = table.reload();

      ReadColumns columns = ReadColumns.of(path, snapshot, List.of());
      List<List<Object>> read = new ArrayList<>();
      for (ReadFile file : files(snapshot, null)) {
        try (FileRows rows = FileRows.open(engine, conf, columns, file, 0)) {
          while (rows.next()) {
            read.add(values(rows.row()));
          }
        }
      }

      assertThat(read)
          .hasSize(30)
          .containsExactlyInAnyOrderElementsOf(DeltaTableReader.readAll(path));
      assertThat(read).contains(Arrays.asList(3L, 0, "t3", null), List.of(21L, 0, "t21", "n"));
    }
  }

  @Test
  void aFilterOnAColumnNotReadIsRefusedNamingIt() throws Exception {
    String path = dir.resolve("unread").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      table.commit("app", 1, TestTables.writeFiles(path, TYPE, List.of(), rows(0, 3)));
      ReadColumns columns = ReadColumns.of(path, table.reload(), List.of("id"));
      ReadFilter onText = new ReadFilter.Compare("text", "=", "t1");

      assertThatThrownBy(() -> RowFilter.of(onText, columns))
          .hasMessageContaining("column 'text'")
          .hasMessageContaining(path);
    }
  }

  @Test
  void aRowFilterKeepsOnlyRowsItHoldsForWithNullsUnknown() {
    ReadFilter notA = new ReadFilter.Not(new ReadFilter.Compare("text", "=", "a"));
    ReadFilter isNullOrSmall =
        new ReadFilter.Or(new ReadFilter.IsNull("text"), new ReadFilter.Compare("id", "<", 2L));
    List<RowData> rows =
        List.of(
            GenericRowData.of(1L, 0, StringData.fromString("a")),
            GenericRowData.of(2L, 0, null),
            GenericRowData.of(3L, 0, StringData.fromString("b")));
    ReadColumns columns = columnsOf(TYPE);

    assertThat(kept(RowFilter.of(notA, columns), rows)).containsExactly(3L);
    assertThat(kept(RowFilter.of(isNullOrSmall, columns), rows)).containsExactly(1L, 2L);
  }

  private ReadColumns columnsOf(RowType type) {
    String path = dir.resolve("schema-only").toUri().toString();
    try (DeltaTable table = TestTables.create(path, type, List.of(), Map.of())) {
      return ReadColumns.of(path, table.snapshot(), List.of());
    }
  }

  private static List<Long> kept(RowFilter filter, List<RowData> rows) {
    return rows.stream().filter(filter::keeps).map(row -> row.getLong(0)).toList();
  }

  private List<ReadFile> files(Snapshot snapshot, Predicate filter) {
    return SnapshotFiles.of(engine, snapshot, Optional.ofNullable(filter), "test");
  }

  private static List<RowData> rows(long from, long to) {
    List<RowData> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(GenericRowData.of(id, (int) (id % 3), StringData.fromString("t" + id)));
    }
    return rows;
  }

  private static List<Object> values(RowData row) {
    List<Object> values = new ArrayList<>();
    values.add(row.getLong(0));
    values.add(row.isNullAt(1) ? null : row.getInt(1));
    for (int i = 2; i < row.getArity(); i++) {
      values.add(row.isNullAt(i) ? null : row.getString(i).toString());
    }
    return values;
  }
}
