/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.SinkConfigs;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.metrics.groups.InternalSinkWriterMetricGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The writer without a cluster: what each checkpoint hands on, rolling by row count, and a buffer
 * budget too small for the partitions of a checkpoint. The files are committed and read back.
 */
class DeltaSinkWriterTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "p", "payload"});

  @TempDir Path dir;

  private final List<RowData> written = new ArrayList<>();
  private final SinkWriterMetricGroup metrics =
      InternalSinkWriterMetricGroup.wrap(UnregisteredMetricsGroup.createOperatorMetricGroup());

  @ParameterizedTest
  @EnumSource(
      value = RowKind.class,
      names = {"UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"})
  void rowsOtherThanInsertsFailNamingTheTableAndTheirKindAndAreNotWritten(RowKind kind)
      throws Exception {
    String path = table("kinds-" + kind);
    DeltaSinkConfig config = SinkConfigs.of(path, TYPE, List.of("p"), new Configuration());
    try (DeltaSinkWriter writer = new DeltaSinkWriter(config, 0, metrics)) {
      write(writer, 0, 3, 1);
      GenericRowData change = GenericRowData.ofKind(kind, 1L, 0, StringData.fromString("x"));

      assertThatThrownBy(() -> writer.write(change, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Delta sink for table " + path)
          .hasMessageContaining("received a row of kind " + kind)
          .hasMessageContaining("takes INSERT rows only");
      assertThat(files(writer.prepareCommit()).numRecords()).isEqualTo(3);
    }
  }

  @Test
  void eachCheckpointHandsOnItsFilesOnceAndAnEmptyOneNothing() throws Exception {
    String path = table("checkpoints");
    DeltaSinkConfig config = SinkConfigs.of(path, TYPE, List.of("p"), new Configuration());
    List<DataFiles> checkpoints = new ArrayList<>();
    try (DeltaSinkWriter writer = new DeltaSinkWriter(config, 0, metrics)) {
      write(writer, 0, 100, 3);
      checkpoints.add(files(writer.prepareCommit()));
      assertThat(writer.prepareCommit()).isEmpty();
      write(writer, 100, 10, 3);
      checkpoints.add(files(writer.prepareCommit()));
    }

    assertThat(checkpoints.get(0).size()).isEqualTo(3);
    assertThat(checkpoints.get(0).numRecords()).isEqualTo(100);
    assertThat(checkpoints.get(1).numRecords()).isEqualTo(10);
    assertThat(metrics.getNumRecordsSendCounter().getCount()).isEqualTo(110);
    assertThat(metrics.getNumBytesSendCounter().getCount())
        .isEqualTo(checkpoints.get(0).sizeBytes() + checkpoints.get(1).sizeBytes());
    commitAndAssertRows(path, checkpoints);
  }

  @Test
  void filesRollAtTheirRowLimitWithinACheckpoint() throws Exception {
    String path = table("rolled");
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.MAX_ROWS_PER_FILE, 25L);
    DeltaSinkConfig config = SinkConfigs.of(path, TYPE, List.of(), options);
    DataFiles files;
    try (DeltaSinkWriter writer = new DeltaSinkWriter(config, 0, metrics)) {
      write(writer, 0, 110, 1);
      files = files(writer.prepareCommit());
    }

    assertThat(files.toList())
        .extracting(DataFile::numRecords)
        .containsExactly(25L, 25L, 25L, 25L, 10L);
    commitAndAssertRows(path, List.of(files));
  }

  @Test
  void aBudgetTooSmallForACheckpointsPartitionsCompletesFilesEarlyAndLosesNothing()
      throws Exception {
    String path = table("budget");
    Configuration options = new Configuration();
    options.set(DeltaSinkOptions.BUFFER_BUDGET, MemorySize.parse("256kb"));
    DeltaSinkConfig config = SinkConfigs.of(path, TYPE, List.of("p"), options);
    int partitions = 300;
    DataFiles files;
    try (DeltaSinkWriter writer = new DeltaSinkWriter(config, 0, metrics)) {
      // Ten rows of ~200 bytes per partition, round robin: their held rows take ~900 KB in all.
      write(writer, 0, 10 * partitions, partitions);
      files = files(writer.prepareCommit());
    }

    assertThat(files.numRecords()).isEqualTo(10L * partitions);
    assertThat(files.size()).isGreaterThan(partitions);
    commitAndAssertRows(path, List.of(files));
  }

  private void write(DeltaSinkWriter writer, long first, int rows, int partitions)
      throws Exception {
    for (long id = first; id < first + rows; id++) {
      RowData row =
          GenericRowData.of(
              id,
              (int) (id % partitions),
              StringData.fromString("payload " + id + "x".repeat(180)));
      writer.write(row, (SinkWriter.Context) null);
      written.add(row);
    }
  }

  private static DataFiles files(Collection<DeltaWriteResult> results) {
    assertThat(results).hasSize(1);
    return results.iterator().next().files();
  }

  private void commitAndAssertRows(String path, List<DataFiles> checkpoints) {
    try (var table = TestTables.open(path)) {
      for (int i = 0; i < checkpoints.size(); i++) {
        TestTables.committed(table.commit("writer-test", i + 1, checkpoints.get(i)));
      }
    }
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            written.stream().map(row -> CanonicalRows.of(row, TYPE)).toList());
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
