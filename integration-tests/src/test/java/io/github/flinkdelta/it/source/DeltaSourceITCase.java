/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source end to end: bounded reads equal what Kernel's reader reads of the same version, and a
 * continuous read copies a table while it is written, through failures of both jobs, into a second
 * table that ends equal to the first.
 */
class DeltaSourceITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final int BUCKETS = 5;

  @TempDir Path dir;

  @Test
  void aBoundedReadOfAPartitionedTableReturnsExactlyItsRows() throws Exception {
    String table = table("partitioned");
    write(table, 4_000, "bucket");

    List<List<Object>> read = readBounded(DeltaSource.builder().tablePath(table).bounded());

    assertThat(read)
        .hasSize(4_000)
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(4_000, BUCKETS));
    assertThat(read).containsExactlyInAnyOrderElementsOf(DeltaTableReader.readAll(table));
  }

  @Test
  void aBoundedReadOfSomeColumnsReturnsThemInTheOrderAsked() throws Exception {
    String table = table("projected");
    write(table, 1_000, "bucket");

    List<List<Object>> read =
        readBounded(DeltaSource.builder().tablePath(table).columns("bucket", "id").bounded());

    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : TestRows.expected(1_000, BUCKETS)) {
      expected.add(List.of(row.get(1), row.get(0)));
    }
    assertThat(read).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aBoundedReadOfAnUpsertTableLeavesOutTheRowsItsDeletionVectorsDelete() throws Exception {
    String table = table("upserts");
    Changelog changelog = new Changelog(300);
    long changes = 6_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    changelog
        .source(env, 0, changes, 20_000)
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(Changelog.TYPE)
                .primaryKey("id")
                .partitionColumns("bucket")
                .build());
    env.execute("upserts");
    assertThat(DeltaLogFiles.addsFrom(table, 0))
        .as("adds with deletion vectors")
        .anyMatch(add -> add.hasNonNull("deletionVector"));

    List<List<Object>> read = readBounded(DeltaSource.builder().tablePath(table).bounded());

    assertThat(read)
        .containsExactlyInAnyOrderElementsOf(Changelog.rows(changelog.expected(changes)));
  }

  @Test
  void aBoundedReadAtAVersionReadsThatVersion() throws Exception {
    String table = table("time-travel");
    write(table, 500, null);
    long first = DeltaTableReader.version(table);
    write(table, 700, null);

    List<List<Object>> read =
        readBounded(DeltaSource.builder().tablePath(table).bounded().version(first));

    assertThat(read).containsExactlyInAnyOrderElementsOf(TestRows.expected(500, BUCKETS));
  }

  @Test
  void aReadAtATimestampStartsAtTheVersionCommittedThen() throws Exception {
    String table = table("by-time");
    write(table, 300, null);
    write(table, 500, null);
    io.delta.kernel.Snapshot second = DeltaLogFiles.snapshot(table);
    long secondCommitted =
        second.getTimestamp(
            io.delta.kernel.defaults.engine.DefaultEngine.create(
                new org.apache.hadoop.conf.Configuration()));

    assertThat(
            readBounded(
                DeltaSource.builder().tablePath(table).bounded().timestamp(secondCommitted - 1)))
        .as("the version before the second")
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(300, BUCKETS));
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    DeltaSource fromThen =
        DeltaSource.builder().tablePath(table).continuous().timestamp(secondCommitted).build();
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> rows =
        env.fromSource(fromThen, WatermarkStrategy.noWatermarks(), "delta source")
            .executeAndCollect()) {
      for (int i = 0; i < 500; i++) {
        read.add(TestRows.values(rows.next(), fromThen.columnTypes()));
      }
    }
    assertThat(read)
        .as("the second version's rows, and none of the first's")
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(500, BUCKETS));
  }

  @Test
  void aContinuousReadCopiesATableWhileItIsWrittenExactlyOnceThroughFailuresOfBothJobs()
      throws Exception {
    String source = table("source");
    String copy = table("copy");
    long count = 12_000;
    FaultCounter writerFaults = FaultCounter.in(shared);
    FaultCounter readerFaults = FaultCounter.in(shared);
    write(source, 1, "bucket");

    StreamExecutionEnvironment writing = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(writing, count, 3_000, BUCKETS)
        .filter(row -> row.getLong(0) > 0)
        .map(FailingMapper.untilFired(writerFaults, 2, 2_500))
        .returns(InternalTypeInfo.of(TestRows.TYPE))
        .sinkTo(sink(source, "bucket"));
    JobClient writer = writing.executeAsync("writer");

    StreamExecutionEnvironment reading = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    reading
        .fromSource(
            DeltaSource.builder()
                .tablePath(source)
                .continuous()
                .option(DeltaSourceOptions.POLL_INTERVAL, java.time.Duration.ofMillis(100))
                .build(),
            WatermarkStrategy.noWatermarks(),
            "delta source")
        .uid("delta-source")
        .map(FailingMapper.untilFired(readerFaults, 2, 1_000))
        .returns(InternalTypeInfo.of(TestRows.TYPE))
        .sinkTo(sink(copy, null));
    JobClient reader = reading.executeAsync("reader");

    writer.getJobExecutionResult().get();
    Await.until(reader, "the copy to hold every row", () -> countOf(copy) >= count);
    reader.cancel().get();

    assertThat(writerFaults.count()).isEqualTo(2);
    assertThat(readerFaults.count()).isEqualTo(2);
    List<List<Object>> expected = TestRows.expected(count, BUCKETS);
    assertThat(DeltaTableReader.readAll(source)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(DeltaTableReader.readAll(copy)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aChangelogReadMirrorsAnUpsertTableThroughFailuresOfBothJobs() throws Exception {
    String source = table("upsert-source");
    String copy = table("upsert-copy");
    Changelog changelog = new Changelog(400);
    long changes = 12_000;
    FaultCounter writerFaults = FaultCounter.in(shared);
    FaultCounter readerFaults = FaultCounter.in(shared);
    StreamExecutionEnvironment first = FLINK.job().checkpointEveryMillis(100).env();
    changelog.source(first, 0, 1, 1_000).sinkTo(upsertSink(source));
    first.execute("the first change");

    StreamExecutionEnvironment writing = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    changelog
        .source(writing, 1, changes - 1, 3_000)
        .map(FailingMapper.untilFired(writerFaults, 2, 2_500))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(upsertSink(source));
    JobClient writer = writing.executeAsync("upsert writer");

    StreamExecutionEnvironment reading = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    reading
        .fromSource(
            DeltaSource.builder()
                .tablePath(source)
                .continuous()
                .option(
                    DeltaSourceOptions.CHANGE_COMMITS, DeltaSourceOptions.ChangeCommits.CHANGELOG)
                .option(DeltaSourceOptions.POLL_INTERVAL, java.time.Duration.ofMillis(100))
                .build(),
            WatermarkStrategy.noWatermarks(),
            "delta changelog source")
        .uid("delta-source")
        .map(FailingMapper.untilFired(readerFaults, 2, 2_000))
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(upsertSink(copy));
    JobClient reader = reading.executeAsync("changelog reader");

    writer.getJobExecutionResult().get();
    List<List<Object>> expected = Changelog.rows(changelog.expected(changes));
    assertThat(DeltaTableReader.readAll(source)).containsExactlyInAnyOrderElementsOf(expected);
    Await.until(
        reader,
        "the copy to equal the upsert table",
        () -> sameRows(DeltaTableReader.readAll(copy), expected));
    reader.cancel().get();

    assertThat(writerFaults.count()).isEqualTo(2);
    assertThat(readerFaults.count()).isEqualTo(2);
    assertThat(DeltaTableReader.readAll(copy)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aContinuousReadGoesOnPastAnAddedColumnAndStopsAtAColumnsTypeChangeNamingIt()
      throws Exception {
    String table = table("evolving");
    write(table, 100, null);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    DeltaSource source =
        DeltaSource.builder()
            .tablePath(table)
            .continuous()
            .option(DeltaSourceOptions.POLL_INTERVAL, java.time.Duration.ofMillis(100))
            .build();
    RowType type = source.columnTypes();
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> rows =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "delta source")
            .executeAndCollect()) {
      for (int i = 0; i < 100; i++) {
        read.add(TestRows.values(rows.next(), type));
      }
      // A writer adds a column: the read goes on with the columns it was built with.
      writeRows(table, withNote(new IntType()), SchemaEvolution.ADD_COLUMNS, 100, 50);
      for (int i = 0; i < 50; i++) {
        read.add(TestRows.values(rows.next(), type));
      }
      assertThat(read).containsExactlyInAnyOrderElementsOf(TestRows.expected(150, BUCKETS));

      // A writer widens bucket to BIGINT: the read cannot go on and says why.
      writeRows(table, withNote(new BigIntType()), SchemaEvolution.WIDEN, 150, 10);
      assertThatThrownBy(rows::next)
          .rootCause()
          .hasMessageMatching("(?s)Version \\d+ of Delta table .* changed column 'bucket'.*")
          .hasMessageContaining("from integer to long");
    }
  }

  @Test
  void aContinuousReadStopsAtAVersionThatUpdatesRowsNamingItAndTheOption() throws Exception {
    String table = table("updated");
    Changelog changelog = new Changelog(50);
    // Two jobs, so that the second one's changes of the first one's keys are a version of their
    // own.
    for (long from : new long[] {0, 500}) {
      StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
      changelog
          .source(env, from, 500, 1_000_000)
          .sinkTo(
              DeltaSink.builder()
                  .tablePath(table)
                  .rowType(Changelog.TYPE)
                  .primaryKey("id")
                  .build());
      env.execute("upserts from " + from);
    }
    assertThat(DeltaLogFiles.actions(table, DeltaTableReader.version(table), "remove"))
        .as("removes of the last version")
        .isNotEmpty();

    StreamExecutionEnvironment reading = FLINK.job().env();
    reading
        .fromSource(
            DeltaSource.builder().tablePath(table).version(0).continuous().build(),
            WatermarkStrategy.noWatermarks(),
            "delta source")
        .sinkTo(new org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink<>());

    assertThatThrownBy(() -> reading.execute("reader"))
        .rootCause()
        .hasMessageContaining("deletes or updates rows")
        .hasMessageContaining(DeltaSourceOptions.CHANGE_COMMITS.key())
        .hasMessageMatching("(?s)Version \\d+ of Delta table .*");
  }

  private static boolean sameRows(List<List<Object>> actual, List<List<Object>> expected) {
    return actual.size() == expected.size()
        && new java.util.HashSet<>(actual).equals(new java.util.HashSet<>(expected));
  }

  private static DeltaSink upsertSink(String table) {
    return DeltaSink.builder().tablePath(table).rowType(Changelog.TYPE).primaryKey("id").build();
  }

  private static long countOf(String table) {
    try {
      return DeltaTableReader.readAll(table).size();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private List<List<Object>> readBounded(io.github.flinkdelta.source.DeltaSourceBuilder builder)
      throws Exception {
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    DeltaSource source = builder.build();
    RowType type = ((InternalTypeInfo<RowData>) source.getProducedType()).toRowType();
    DataStream<RowData> rows =
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "delta source");
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> it = rows.executeAndCollect()) {
      while (it.hasNext()) {
        read.add(TestRows.values(it.next(), type));
      }
    }
    return read;
  }

  /** TestRows' type with {@code bucket} of another type and a column {@code note} added. */
  private static RowType withNote(LogicalType bucket) {
    return RowType.of(
        new LogicalType[] {
          new BigIntType(false),
          bucket,
          new VarCharType(VarCharType.MAX_LENGTH),
          new VarCharType(VarCharType.MAX_LENGTH)
        },
        new String[] {"id", "bucket", "payload", "note"});
  }

  /** Rows {@code from..from+count-1} of TestRows, with "n" in any column after the third. */
  private void writeRows(
      String table, RowType type, SchemaEvolution evolution, long from, long count)
      throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (long i = from; i < from + count; i++) {
      GenericRowData row = new GenericRowData(type.getFieldCount());
      row.setField(0, i);
      row.setField(
          1,
          type.getTypeAt(1) instanceof BigIntType ? (Object) (i % BUCKETS) : (int) (i % BUCKETS));
      row.setField(2, StringData.fromString("payload-" + i + "-" + "x".repeat(20)));
      for (int f = 3; f < type.getFieldCount(); f++) {
        row.setField(f, StringData.fromString("n"));
      }
      rows.add(row);
    }
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.fromData(rows, InternalTypeInfo.of(type))
        .sinkTo(
            DeltaSink.builder().tablePath(table).rowType(type).schemaEvolution(evolution).build());
    env.execute("write " + table + " as " + type);
  }

  private void write(String table, long count, String partitionColumn) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    TestRows.source(env, count, 1_000_000, BUCKETS).sinkTo(sink(table, partitionColumn));
    env.execute("write " + table);
  }

  private static DeltaSink sink(String table, String partitionColumn) {
    var builder = DeltaSink.builder().tablePath(table).rowType(TestRows.TYPE);
    if (partitionColumn != null) {
      builder.partitionColumns(partitionColumn);
    }
    return builder.build();
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
