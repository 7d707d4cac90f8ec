/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers of many tables under one budget: the largest holders give way, no row is lost. */
class SharedWriteBudgetTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new IntType(), new VarCharType(1000)},
          new String[] {"id", "bucket", "payload"});

  @TempDir Path dir;

  @Test
  void theWritersThatHoldTheMostCompleteTheirFilesWhenTheSharedBudgetIsExceeded() throws Exception {
    // Well above the fixed cost of twenty open files, well below what table 0 alone buffers.
    long limit = MemorySize.parse("4mb").getBytes();
    SharedWriteBudget budget = new SharedWriteBudget(limit);
    List<PartitionedDataWriter> writers = new ArrayList<>();
    int tables = 20;
    for (int t = 0; t < tables; t++) {
      writers.add(writer(budget, "t" + t));
    }
    assertThat(budget.writerCount()).isEqualTo(tables);
    // Table 0 takes most rows; the others a few each, which fit the budget together.
    long rows = 0;
    long maxUsed = 0;
    for (long i = 0; i < 100_000; i++) {
      int table = i % 10 == 0 ? (int) (1 + (i / 10) % (tables - 1)) : 0;
      writers.get(table).write(row(i));
      rows++;
      maxUsed = Math.max(maxUsed, budget.usedBytes());
    }
    assertThat(maxUsed).isLessThanOrEqualTo(limit + limit / 10);
    long written = 0;
    List<Integer> filesPerTable = new ArrayList<>();
    for (PartitionedDataWriter writer : writers) {
      DataFiles files = writer.flush();
      filesPerTable.add(files.size());
      written += files.numRecords();
    }
    assertThat(written).isEqualTo(rows);
    // The big table's file was completed early; the small tables kept
    // theirs open until the flush, one file each.
    assertThat(filesPerTable.get(0)).isGreaterThan(1);
    assertThat(filesPerTable.subList(1, tables)).containsOnly(1);
    assertThat(budget.usedBytes()).isZero();
    writers.forEach(PartitionedDataWriter::close);
    assertThat(budget.writerCount()).isZero();
  }

  private PartitionedDataWriter writer(SharedWriteBudget budget, String name) {
    String path = dir.resolve(name).toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      Configuration options = new Configuration();
      // Each writer's own budget would hold everything: only the shared one can stop them.
      options.set(TableWriteOptions.BUFFER_BUDGET, MemorySize.parse("1gb"));
      return budget.newWriter(
          table.layoutFor(TYPE, List.of()),
          HadoopConfigurations.of(Map.of()),
          path,
          FileWriteOptions.from(options),
          "p",
          true);
    }
  }

  private static GenericRowData row(long i) {
    return GenericRowData.of(
        i, (int) (i % 7), StringData.fromString("payload " + i + " " + "z".repeat(100)));
  }
}
