/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableLog} reading a range of versions: the versions of named apps from the first bytes of
 * their commit files ({@link CommitHeader}), every other version whole.
 */
class TableLogTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)},
          new String[] {"id", "v"});

  @TempDir Path dir;

  @Test
  void versionsOfANamedAppAreReadOnlyAsFarAsTheirTransactionsAndTheOthersWhole() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table =
        TestTables.create(path, TYPE, List.of(), Map.of("delta.enableDeletionVectors", "true"))) {
      DataFile first = write(path, 0, "a");
      TestTables.committed(table.commit("app", 1, List.of(first)));
      FileDeletes deletes = new FileDeletes();
      deletes.add(FileIds.of(first.path()), 1);
      TestTables.committed(table.commit("other", 1, List.of(write(path, 10, "o")), deletes));
      TestTables.committed(table.commit("app", 2, List.of(write(path, 20, "b"))));
      TestTables.committed(table.commit("other", 2, List.of(write(path, 30, "p"))));
      long latest = table.reload().getVersion();
      assertThat(latest).isEqualTo(4);

      Configuration conf = HadoopConfigurations.of(Map.of());
      Engine engine = DefaultEngine.create(conf);
      try (TableHistory history = new PathTableLocator(path).history(conf)) {
        List<TableLog.Version> whole = TableLog.read(engine, history, path, 1, latest);
        List<TableLog.Version> named =
            TableLog.read(engine, history, path, 1, latest, Set.of("app"));

        assertThat(named).extracting(TableLog.Version::version).containsExactly(1L, 2L, 3L, 4L);
        for (int i : List.of(0, 2)) {
          assertThat(whole.get(i).added()).hasSize(1);
          assertThat(named.get(i).transactions()).isEqualTo(whole.get(i).transactions());
          assertThat(named.get(i).added()).isEmpty();
          assertThat(named.get(i).removed()).isEmpty();
        }
        assertThat(named.get(1)).isEqualTo(whole.get(1));
        assertThat(named.get(1).removed()).hasSize(1);
        assertThat(named.get(3)).isEqualTo(whole.get(3));

        // Past its header, the app's commit at version 3 now holds a line no reader can parse:
        // only a whole read meets it.
        Files.writeString(
            dir.resolve("t/_delta_log/" + String.format("%020d", 3) + ".json"),
            "{\"add\": not json\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.APPEND);
        assertThat(TableLog.read(engine, history, path, 1, latest, Set.of("app"))).isEqualTo(named);
        assertThatThrownBy(() -> TableLog.read(engine, history, path, 1, latest))
            .isInstanceOf(RuntimeException.class);
      }
    }
  }

  @Test
  void aHeaderIsWhatPrecedesTheFirstFileActionOrNothingWhenTheBytesReadEndFirst() {
    String commitInfo = "{\"commitInfo\":{\"timestamp\":1}}\n";
    String txn = "{\"txn\":{\"appId\":\"app\",\"version\":7,\"lastUpdated\":1}}\n";
    String add = "{\"add\":{\"path\":\"a.parquet\"}}\n";
    String metadata = "{\"metaData\":{\"id\":\"x\"}}\n";

    CommitHeader header = CommitHeader.parse(commitInfo + txn + add + "{\"add\":", false);
    assertThat(header.transactions()).isEqualTo(Map.of("app", 7L));
    assertThat(header.metadataChanged()).isFalse();
    assertThat(header.isOfAny(Set.of("other", "app"))).isTrue();
    assertThat(header.isOfAny(Set.of("other"))).isFalse();

    // The bytes read end inside the header: nothing is known.
    assertThat(CommitHeader.parse(commitInfo + "{\"txn\":{\"appId\":\"ap", false)).isNull();
    assertThat(CommitHeader.parse(commitInfo + txn, false)).isNull();
    // A whole file without file actions is all header.
    CommitHeader metadataOnly = CommitHeader.parse(commitInfo + metadata + txn, true);
    assertThat(metadataOnly.metadataChanged()).isTrue();
    assertThat(metadataOnly.transactions()).isEqualTo(Map.of("app", 7L));
    // A transaction after the first file action is not the header's.
    assertThat(CommitHeader.parse(commitInfo + add + txn, true).transactions()).isEmpty();
  }

  private static DataFile write(String path, long from, String prefix) throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (long i = from; i < from + 3; i++) {
      rows.add(GenericRowData.of(i, StringData.fromString(prefix + i)));
    }
    return TestTables.writeFiles(path, TYPE, List.of(), rows).get(0);
  }
}
