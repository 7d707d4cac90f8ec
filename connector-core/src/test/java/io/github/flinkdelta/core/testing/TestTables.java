/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;

/** Path tables for tests: opened or created through the connector's one entry point. */
public final class TestTables {

  private TestTables() {}

  /** Opens the existing table at {@code path} with the connector's default storage options. */
  public static DeltaTable open(String path) {
    return open(path, HadoopConfigurations.of(Map.of()));
  }

  public static DeltaTable open(String path, Configuration conf) {
    return DeltaTable.open(TableRequest.of(new PathTableLocator(path), conf));
  }

  /** Opens the table at {@code path}, creating it from {@code type} when there is none. */
  public static DeltaTable create(
      String path, RowType type, List<String> partitions, Map<String, String> properties) {
    return create(path, HadoopConfigurations.of(Map.of()), type, partitions, properties);
  }

  public static DeltaTable create(
      String path,
      Configuration conf,
      RowType type,
      List<String> partitions,
      Map<String, String> properties) {
    return DeltaTable.open(
        TableRequest.of(new PathTableLocator(path), conf)
            .creatingIfMissing(
                new TableDefinition(DeltaTypes.toDeltaSchema(type), partitions, properties)));
  }

  /**
   * Writes {@code rows} into data files of the table at {@code path} (created from {@code type}
   * when there is none) with one writer and the default options; nothing is committed.
   */
  public static List<DataFile> writeFiles(
      String path, RowType type, List<String> partitions, List<RowData> rows) throws IOException {
    return writeFiles(
        path, type, partitions, rows, new org.apache.flink.configuration.Configuration());
  }

  /**
   * As {@link #writeFiles(String, RowType, List, List)}, with the sink options of {@code options}.
   */
  public static List<DataFile> writeFiles(
      String path,
      RowType type,
      List<String> partitions,
      List<RowData> rows,
      org.apache.flink.configuration.Configuration options)
      throws IOException {
    FileLayout layout;
    try (DeltaTable table = create(path, type, partitions, Map.of())) {
      layout = table.layoutFor(type, partitions);
    }
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            layout,
            HadoopConfigurations.of(Map.of()),
            path,
            FileWriteOptions.from(options),
            "part-" + UUID.randomUUID())) {
      for (RowData row : rows) {
        writer.write(row);
      }
      return writer.flush().toList();
    }
  }

  /** Fails unless {@code outcome} added the files; returns it as what it is. */
  public static CommitOutcome.Committed committed(CommitOutcome outcome) {
    assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
    return (CommitOutcome.Committed) outcome;
  }

  /** Commits the row (checkpoint) as version checkpoint and waits for its Delta checkpoint. */
  public static void commitOneRow(
      RowType type, DeltaTable table, DeltaCheckpoints checkpoints, long checkpoint)
      throws Exception {
    List<DataFile> files =
        writeFiles(table.path(), type, List.of(), List.of(GenericRowData.of(checkpoint)));
    committed(table.commit("app", checkpoint, files));
    checkpoints.committed(table.snapshot());
    awaitCheckpoint(checkpoints, checkpoint);
  }

  /** Waits until a version due for a Delta checkpoint (every fourth by default) has one. */
  public static void awaitCheckpoint(DeltaCheckpoints checkpoints, long version)
      throws InterruptedException {
    awaitCheckpoint(checkpoints, version, 4);
  }

  public static void awaitCheckpoint(DeltaCheckpoints checkpoints, long version, int interval)
      throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (version % interval == 0
        && checkpoints.latestCheckpointVersion() < version
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }
}
