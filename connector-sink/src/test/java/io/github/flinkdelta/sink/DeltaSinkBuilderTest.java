/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.UnsupportedColumnTypeException;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DayTimeIntervalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link DeltaSinkBuilder#build()} refuses, and how it says so. */
class DeltaSinkBuilderTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(100), new IntType()},
          new String[] {"id", "name", "bucket"});

  @TempDir Path dir;

  @Test
  void aJobWithUnalignedCheckpointsIsRefusedWhenItsGraphIsBuilt() {
    var env =
        org.apache.flink.streaming.api.environment.StreamExecutionEnvironment
            .getExecutionEnvironment();
    env.enableCheckpointing(1_000);
    env.getCheckpointConfig().enableUnalignedCheckpoints();
    env.fromSequence(0, 10)
        .map(
            i ->
                (org.apache.flink.table.data.RowData)
                    org.apache.flink.table.data.GenericRowData.of(i, null, 1))
        .returns(
            org.apache.flink.api.common.typeinfo.TypeInformation.of(
                org.apache.flink.table.data.RowData.class))
        .sinkTo(DeltaSink.builder().tablePath(table("unaligned")).rowType(TYPE).build());

    assertThatThrownBy(env::getStreamGraph)
        .hasStackTraceContaining("does not support unaligned checkpoints")
        .hasStackTraceContaining("execution.checkpointing.unaligned.enabled");
  }

  @Test
  void missingSettingsAreListedTogether() {
    assertThatThrownBy(() -> DeltaSink.builder().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tablePath")
        .hasMessageContaining("rowType");
  }

  @Test
  void unknownPartitionColumnIsNamed() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table("t"))
                    .rowType(TYPE)
                    .partitionColumns("day")
                    .build())
        .hasMessageContaining("partition column 'day'");
  }

  @Test
  void aNegativeDeltaCheckpointIntervalIsRefused() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table("t"))
                    .rowType(TYPE)
                    .option(
                        io.github.flinkdelta.sink.DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, -5)
                    .build())
        .hasMessageContaining("'sink.delta-checkpoint.interval' is -5");
  }

  @Test
  void typesDeltaCannotHoldAreRefusedWithTheirColumnPaths() {
    RowType nested = RowType.of(new LogicalType[] {new TimeType()}, new String[] {"at"});
    RowType type =
        RowType.of(
            new LogicalType[] {
              new IntType(),
              nested,
              new DayTimeIntervalType(DayTimeIntervalType.DayTimeResolution.DAY)
            },
            new String[] {"id", "inner", "wait"});
    assertThatThrownBy(() -> DeltaSink.builder().tablePath(table("t")).rowType(type).build())
        .isInstanceOf(UnsupportedColumnTypeException.class)
        .hasMessageContaining("column 'inner.at' has type TIME(0)")
        .hasMessageContaining("column 'wait' has type INTERVAL DAY");
    assertThat(Files.exists(dir.resolve("t"))).isFalse();
  }

  @Test
  void rowsThatDoNotMatchAnExistingTableFailWithEveryDifference() {
    String table = table("existing");
    DeltaSink.builder().tablePath(table).rowType(TYPE).partitionColumns("bucket").build();

    // Under 'none' nothing evolves: a NOT NULL column missing, a type neither widens into the
    // other, and a column the table lacks are all refused, in one message.
    RowType other =
        RowType.of(
            new LogicalType[] {new IntType(), new IntType(), new VarCharType(10)},
            new String[] {"bucket", "name", "extra"});
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table)
                    .rowType(other)
                    .partitionColumns("bucket")
                    .schemaEvolution(SchemaEvolution.NONE)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(table)
        .hasMessageContaining("column 'id' (long NOT NULL) is missing from the rows")
        .hasMessageContaining("column 'name' is string in the table but integer in the rows")
        .hasMessageContaining("column 'extra' (string) of the rows is not in the table");
  }

  @Test
  void byDefaultTheTableGainsTheRowsNewColumnsAtBuild() {
    String table = table("evolving");
    DeltaSink.builder().tablePath(table).rowType(TYPE).partitionColumns("bucket").build();
    RowType wider =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new IntType(), new VarCharType(10)},
            new String[] {"id", "bucket", "extra"});

    DeltaSink.builder().tablePath(table).rowType(wider).partitionColumns("bucket").build();

    try (DeltaTable delta =
        DeltaTable.open(
            TableRequest.of(
                new PathTableLocator(table), DeltaSinkConfig.hadoopConf(java.util.Map.of())))) {
      assertThat(delta.snapshot().getSchema().fieldNames())
          .containsExactly("id", "name", "bucket", "extra");
      assertThat(delta.snapshot().getTableProperties())
          .containsEntry("delta.columnMapping.mode", "name");
    }
  }

  @Test
  void missingTableWithoutCreateIfMissingFailsClearly() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table("absent"))
                    .rowType(TYPE)
                    .option(DeltaSinkOptions.CREATE_IF_MISSING, false)
                    .build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("There is no Delta table at " + table("absent"))
        .hasMessageContaining("create-if-missing");
  }

  @Test
  void unwritableLocationFailsAtBuildTime() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
    String table = file.resolve("table").toUri().toString();
    assertThatThrownBy(() -> DeltaSink.builder().tablePath(table).rowType(TYPE).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot write to Delta table location " + table)
        .hasMessageContaining("permissions");
  }

  @Test
  void aSinkWithAKeyCreatesATableWithDeletionVectorsThatRecordsTheKey() {
    String table = table("keyed");
    DeltaSink.builder().tablePath(table).rowType(TYPE).primaryKey("ID").build();

    try (DeltaTable delta = open(table)) {
      assertThat(delta.snapshot().getTableProperties())
          .containsEntry("delta.enableDeletionVectors", "true")
          .containsEntry("flink.primary-key", "id");
    }
    // The recorded key stands: no key, or another one, is refused.
    assertThatThrownBy(() -> DeltaSink.builder().tablePath(table).rowType(TYPE).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("records the primary key (id)")
        .hasMessageContaining(table);
    assertThatThrownBy(
            () -> DeltaSink.builder().tablePath(table).rowType(TYPE).primaryKey("name").build())
        .hasMessageContaining("keyed by (name)");
  }

  @Test
  void aKeyOnATableWithoutDeletionVectorsEnablesThemInAVersionOfItsOwn() {
    String table = table("plain");
    DeltaSink.builder().tablePath(table).rowType(TYPE).build();
    long before;
    try (DeltaTable delta = open(table)) {
      before = delta.snapshot().getVersion();
    }

    DeltaSink.builder().tablePath(table).rowType(TYPE).primaryKey("id").build();

    try (DeltaTable delta = open(table)) {
      assertThat(delta.snapshot().getVersion()).isEqualTo(before + 1);
      assertThat(delta.snapshot().getTableProperties())
          .containsEntry("delta.enableDeletionVectors", "true");
    }
  }

  @Test
  void tablesWhoseFeaturesForbidUpsertsAreRefusedWithTheProperty() {
    for (String property : List.of("delta.enableChangeDataFeed", "delta.appendOnly")) {
      String table = table(property);
      DeltaSink.builder().tablePath(table).rowType(TYPE).tableProperty(property, "true").build();
      assertThatThrownBy(
              () -> DeltaSink.builder().tablePath(table).rowType(TYPE).primaryKey("id").build())
          .as(property)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(property)
          .hasMessageContaining(table);
    }
  }

  @Test
  void inJobCompactionIsRefusedForATriggerOfNoCommits() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table("compacting"))
                    .rowType(TYPE)
                    .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                    .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 0)
                    .build())
        .hasMessageContaining("'sink.compaction.trigger.commits' must be at least 1");
  }

  @Test
  void aKeyColumnTheRowsLackIsNamed() {
    assertThatThrownBy(
            () ->
                DeltaSink.builder()
                    .tablePath(table("nokey"))
                    .rowType(TYPE)
                    .primaryKey("order_id")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Primary key column 'order_id'")
        .hasMessageContaining("name a column the rows have");
  }

  private static DeltaTable open(String table) {
    return DeltaTable.open(
        TableRequest.of(
            new PathTableLocator(table), DeltaSinkConfig.hadoopConf(java.util.Map.of())));
  }

  private String table(String name) {
    return dir.resolve(name).toUri().toString();
  }
}
