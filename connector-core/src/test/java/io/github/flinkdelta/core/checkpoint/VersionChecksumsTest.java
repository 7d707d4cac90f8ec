/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import static io.github.flinkdelta.core.testing.TestTables.committed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every version the connector commits gets its version checksum, which Kernel reads back and which
 * agrees with the table; a table without checksums gets them again from its next Delta checkpoint.
 */
class VersionChecksumsTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void everyCommittedVersionHasAChecksumThatAgreesWithTheTable() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      for (long checkpoint = 1; checkpoint <= 5; checkpoint++) {
        commitOneRow(table, checkpoint);
      }
      // A compaction removes the five files and adds one: the checksum follows removals too.
      assertThat(
              table
                  .maintenance()
                  .compact(new CompactionOptions(128L << 20, 2, 1L << 40, 0.2), "c")
                  .committed())
          .isTrue();

      long latest = table.snapshot().getVersion();
      assertThat(latest).isEqualTo(6);
      for (long version = 0; version <= latest; version++) {
        assertThat(checksum(version)).as("checksum of version %d", version).exists();
      }
      // The snapshot the next commit starts from holds its checksum: no log replay for it.
      assertThat(table.snapshot().getCurrentCrcInfo())
          .hasValueSatisfying(crc -> assertThat(crc.getVersion()).isEqualTo(latest));
    }

    JsonNode crc = new ObjectMapper().readTree(checksum(6).toFile());
    assertThat(crc.path("numFiles").asLong()).isEqualTo(DeltaTableReader.fileCount(path));
    assertThat(crc.path("numFiles").asLong()).isEqualTo(1);
    assertThat(crc.path("tableSizeBytes").asLong()).isEqualTo(DeltaTableReader.fileBytes(path));
    // Kernel loads a fresh snapshot's state from the checksum at its version.
    Snapshot loaded =
        TableManager.loadSnapshot(path)
            .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
    assertThat(loaded.getCurrentCrcInfo())
        .hasValueSatisfying(
            info -> {
              assertThat(info.getVersion()).isEqualTo(6);
              assertThat(info.getNumFiles()).isEqualTo(1);
            });
  }

  @Test
  void aTableWithoutChecksumsGetsThemAgainFromItsNextDeltaCheckpoint() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      commitOneRow(table, 1);
      commitOneRow(table, 2);
    }
    // As a table written by a writer that leaves no checksums.
    try (Stream<Path> files = Files.list(log())) {
      for (Path file : files.filter(f -> f.toString().endsWith(".crc")).toList()) {
        Files.delete(file);
      }
    }

    try (DeltaTable table = TestTables.open(path);
        DeltaCheckpoints checkpoints =
            DeltaCheckpoints.of("t", HadoopConfigurations.of(Map.of()), 4)) {
      for (long checkpoint = 3; checkpoint <= 10; checkpoint++) {
        TestTables.commitOneRow(TYPE, table, checkpoints, checkpoint);
        // As the sink's committer does after each commit.
        table.reloadIfDue(checkpoints.latestCheckpointVersion());
      }
      assertThat(checksum(3)).as("no checksum in reach of version 3").doesNotExist();
      assertThat(checksum(4)).as("computed beside the checkpoint of version 4").exists();
      for (long version = 5; version <= 10; version++) {
        assertThat(checksum(version)).as("checksum of version %d", version).exists();
      }
      assertThat(table.snapshot().getCurrentCrcInfo())
          .hasValueSatisfying(crc -> assertThat(crc.getVersion()).isEqualTo(10));
    }
    assertThat(new ObjectMapper().readTree(checksum(10).toFile()).path("numFiles").asLong())
        .isEqualTo(10)
        .isEqualTo(DeltaTableReader.fileCount(path));
  }

  @Test
  void aChecksumAFewVersionsBackIsCarriedForwardAtTheNextCommit() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = TestTables.create(path, TYPE, List.of(), Map.of())) {
      commitOneRow(table, 1);
      commitOneRow(table, 2);
    }
    // As if another writer had committed version 2 without a checksum.
    Files.delete(checksum(2));

    try (DeltaTable table = TestTables.open(path)) {
      commitOneRow(table, 3);
      commitOneRow(table, 4);
      // Version 3's derived from version 1's by replaying two commits; version 4's in memory.
      assertThat(checksum(3)).exists();
      assertThat(checksum(4)).exists();
      assertThat(table.snapshot().getCurrentCrcInfo())
          .hasValueSatisfying(crc -> assertThat(crc.getVersion()).isEqualTo(4));
    }
    assertThat(checksum(2)).doesNotExist();
    assertThat(new ObjectMapper().readTree(checksum(4).toFile()).path("numFiles").asLong())
        .isEqualTo(4)
        .isEqualTo(DeltaTableReader.fileCount(path));
  }

  private void commitOneRow(DeltaTable table, long checkpoint) throws IOException {
    committed(
        table.commit(
            "app",
            checkpoint,
            TestTables.writeFiles(
                table.path(), TYPE, List.of(), List.of(GenericRowData.of(checkpoint)))));
  }

  private Path log() {
    return dir.resolve("t/_delta_log");
  }

  private Path checksum(long version) {
    return log().resolve(String.format("%020d.crc", version));
  }
}
