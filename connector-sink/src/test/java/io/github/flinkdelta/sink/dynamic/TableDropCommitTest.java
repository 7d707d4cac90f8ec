/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.RecordedCommitRequest;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic committer's drops of path tables: a checkpoint that drops a table commits its rows
 * and then deletes the table; sent again after a failure, once the table was created anew under its
 * name, it commits none of its rows into the new table and leaves the new table alone.
 */
class TableDropCommitTest {

  private static final RowType ROW =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});

  @TempDir Path root;

  @Test
  void aDropSentAgainAfterTheTableWasCreatedAnewSkipsItsRowsAndLeavesTheNewTable()
      throws Exception {
    DynamicSinkConfig config =
        new DynamicSinkConfig(
            new DynamicTableNames.UnderRoot(root.toUri().toString()),
            Map.of(),
            Map.of(),
            Map.of(),
            null,
            "app");
    DynamicTable shape = DynamicTable.of("db.t", ROW);
    DynamicTableResolver resolver = new DynamicTableResolver(config);
    resolver.resolve(shape);
    TableDrops drops = new TableDrops(config);
    String dropped = drops.idOf("db.t");
    String path = root.resolve("db/t").toUri().toString();

    RecordedCommitRequest<DynamicCommittable> drop =
        new RecordedCommitRequest<>(committable(1, DataFiles.empty(), dropped));
    try (DynamicCommitter committer = committer(config)) {
      committer.commit(List.of(drop));
    }
    assertThat(drop.signals()).isEmpty();
    assertThat(drops.idOf("db.t")).isNull();
    assertThat(Files.exists(root.resolve("db/t"))).isFalse();

    // The rows after the drop create the table anew.
    resolver.forget("db.t");
    resolver.resolve(shape);
    String created = drops.idOf("db.t");
    assertThat(created).isNotNull().isNotEqualTo(dropped);

    // A failure, and the checkpoint that dropped the table comes again, with a file it had written
    // into the dropped table.
    DataFile written = new DataFile("part-0.parquet", 100, 3, Map.of(), "{\"numRecords\":3}");
    RecordedCommitRequest<DynamicCommittable> replay =
        new RecordedCommitRequest<>(committable(1, DataFiles.of(List.of(written)), dropped));
    try (DynamicCommitter committer = committer(config)) {
      committer.commit(List.of(replay));
    }
    assertThat(replay.signals()).containsExactly("already committed");
    assertThat(drops.idOf("db.t")).isEqualTo(created);
    assertThat(DeltaTableReader.version(path)).isZero();
  }

  private static DynamicCommitter committer(DynamicSinkConfig config) {
    return new DynamicCommitter(
        config, OptionalLong.empty(), new DynamicCommitterMetrics(new UnregisteredMetricsGroup()));
  }

  private static DynamicCommittable committable(long checkpoint, DataFiles files, String dropsId) {
    return new DynamicCommittable(
        "db.t", new DeltaCommittable("app", checkpoint, files), false, dropsId);
  }
}
