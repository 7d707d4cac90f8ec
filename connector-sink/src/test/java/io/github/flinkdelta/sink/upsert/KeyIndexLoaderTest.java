/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key index loader on a real table, as two writer subtasks start on it: each reads the keys of
 * its own key groups, together they read every key once, and a key the table holds twice keeps one
 * row and marks the other for deletion.
 */
class KeyIndexLoaderTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "v"});
  private static final int MAX_PARALLELISM = 128;

  @TempDir Path dir;

  @Test
  void eachSubtaskReadsTheKeysOfItsKeyGroupsAndARepeatedKeyKeepsOneRow() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      // Ids 0-99 in version 1; ids 90-109 in version 2: ten keys held twice.
      TestTables.committed(
          table.commit("other", 1, TestTables.writeFiles(path, TYPE, List.of(), rows(0, 100))));
      TestTables.committed(
          table.commit("other", 2, TestTables.writeFiles(path, TYPE, List.of(), rows(90, 110))));
    }
    DeltaSinkConfig config = SinkConfigs.upsert(path, TYPE, List.of("id"), new Configuration());

    Set<String> read = new HashSet<>();
    long entries = 0;
    long repeated = 0;
    for (int subtask = 0; subtask < 2; subtask++) {
      KeyGroupRange range =
          KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, 2, subtask);
      KeyIndexLoader loader =
          new KeyIndexLoader(config, subtask, IndexKeys.of(range, MAX_PARALLELISM));
      HeapKeyIndex index = new HeapKeyIndex(range, MAX_PARALLELISM);
      FileDeletes deletes = new FileDeletes();

      assertThat(loader.readTable(index, deletes))
          .as("the version read")
          .isEqualTo(DeltaTableReader.version(path));

      List<String> keys = new ArrayList<>();
      index.drainTo((key, location) -> keys.add(key));
      assertThat(keys)
          .as("subtask %d's keys", subtask)
          .isNotEmpty()
          .allSatisfy(
              key ->
                  assertThat(
                          range.contains(
                              KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM)))
                      .isTrue());
      entries += keys.size();
      read.addAll(keys);
      repeated += deletes.count();
    }

    assertThat(read).as("every key, by one subtask").hasSize(110);
    assertThat(entries).as("one entry per key").isEqualTo(110);
    assertThat(repeated).as("rows of a key held twice, to delete").isEqualTo(10);
  }

  private static List<RowData> rows(long from, long to) {
    List<RowData> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(GenericRowData.of(id, StringData.fromString("v" + id)));
    }
    return rows;
  }
}
