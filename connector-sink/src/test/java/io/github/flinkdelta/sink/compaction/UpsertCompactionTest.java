/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.sink.RecordedMetrics;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
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
 * The upsert sink's in-job compaction as a writer subtask drives it: a due run rewrites the
 * subtask's own small files on a thread of its own, leaves files other writers named alone, and
 * hands over, at the next barrier, where each row of the files it rewrote moved.
 */
class UpsertCompactionTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
          new String[] {"id", "v"});

  /** Generous: the run's pace is the machine's, the outcome is not. */
  private static final Duration READY_GUARD = Duration.ofMinutes(2);

  @TempDir Path dir;

  @Test
  void aDueRunRewritesOnlyTheSubtasksOwnFilesAndSaysWhereEachOfTheirRowsMoved() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Set<Long> own = new HashSet<>();
    Set<Long> others = new HashSet<>();
    long version;
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      long commit = 1;
      for (int file = 0; file < 3; file++) {
        own.addAll(commit(table, path, "part-00000-" + UUID.randomUUID(), file * 10, commit++));
      }
      // A file the subtask wrote after its rows changed shape (a layout of its own).
      own.addAll(commit(table, path, "part-00000-" + UUID.randomUUID() + "-l1", 30, commit++));
      // Another subtask's file, and another engine's: neither is this subtask's to rewrite.
      others.addAll(commit(table, path, "part-00001-" + UUID.randomUUID(), 100, commit++));
      others.addAll(commit(table, path, "part-00000-" + UUID.randomUUID() + "-c000", 200, commit));
      version = table.snapshot().getVersion();
    }
    Configuration options = new Configuration();
    options.setString("sink.compaction.trigger.commits", "1");
    options.setString("sink.compaction.min-input-files", "2");
    DeltaSinkConfig config = SinkConfigs.upsertCompacting(path, TYPE, List.of("id"), options);

    Optional<UpsertCompaction.Rewrite> ready = Optional.empty();
    try (UpsertCompaction compaction =
        new UpsertCompaction(config, 0, 1, key -> true, new RecordedMetrics(), System::nanoTime)) {
      compaction.checkpointed(version);
      long deadline = System.nanoTime() + READY_GUARD.toNanos();
      while (ready.isEmpty()) {
        assertThat(System.nanoTime()).as("the rewrite was ready in time").isLessThan(deadline);
        Thread.sleep(20);
        ready = compaction.takeReady();
      }
    }

    UpsertCompaction.Rewrite rewrite = ready.get();
    assertThat(rewrite.prepared().plannedVersion()).isEqualTo(version);
    assertThat(rewrite.prepared().removedIds()).containsExactlyInAnyOrderElementsOf(own);
    List<String> movedKeys = new ArrayList<>();
    Set<Long> movedFrom = new HashSet<>();
    rewrite
        .moved()
        .forEach(
            (key, fromFile, fromPosition, to) -> {
              movedKeys.add(key);
              movedFrom.add(fromFile);
            });
    assertThat(movedKeys)
        .as("every row of the subtask's four files, once")
        .hasSize(40)
        .doesNotHaveDuplicates();
    assertThat(movedFrom)
        .containsExactlyInAnyOrderElementsOf(own)
        .doesNotContainAnyElementsOf(others);
  }

  /** Commits ten rows, ids {@code from} on, in a file whose name starts with {@code prefix}. */
  private static List<Long> commit(
      DeltaTable table, String path, String prefix, long from, long commit) throws Exception {
    List<DataFile> files;
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of()),
            HadoopConfigurations.of(Map.of()),
            path,
            FileWriteOptions.from(new Configuration()),
            prefix)) {
      for (long id = from; id < from + 10; id++) {
        RowData row = GenericRowData.of(id, StringData.fromString("v" + id));
        writer.write(row);
      }
      files = writer.flush().toList();
    }
    TestTables.committed(table.commit("writer", commit, files));
    return files.stream().map(file -> FileIds.of(file.path())).toList();
  }
}
