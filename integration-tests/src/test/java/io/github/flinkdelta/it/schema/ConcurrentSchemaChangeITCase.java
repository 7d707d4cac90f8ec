/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.schema;

import static io.github.flinkdelta.it.support.EvolvingRows.V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SourceGate;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Another writer changes the table's schema while a job writes it. The job's readers wait at a
 * {@link SourceGate} once their first rows are committed; the test changes the schema from a second
 * {@link DeltaTable}, then opens the gate, so every later commit meets the change.
 */
class ConcurrentSchemaChangeITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final long ROWS = 400;
  private static final long ROWS_BEFORE_THE_GATE = 50;

  @TempDir Path dir;

  @Test
  void aColumnAddedAndATypeWidenedByAnotherWriterAreFollowedAndTheJobKeepsCommitting()
      throws Exception {
    String table = dir.resolve("followed").toUri().toString();
    SourceGate gate = SourceGate.in(shared);
    JobClient job = startHeldAtTheGate(table, gate, 0);

    long changed =
        changeSchema(
            table,
            schema -> {
              List<StructField> fields = new ArrayList<>();
              for (StructField field : schema.fields()) {
                fields.add(
                    field.getName().equals("qty") ? field.withDataType(LongType.LONG) : field);
              }
              fields.add(new StructField("extra", StringType.STRING, true));
              return new StructType(fields);
            });
    gate.open();
    job.getJobExecutionResult().get();

    // The job committed on after the change, in versions that only add files.
    List<Long> later = DeltaLogFiles.versions(table).stream().filter(v -> v > changed).toList();
    assertThat(later).isNotEmpty();
    for (long v : later) {
      assertThat(DeltaLogFiles.actions(table, v, "add")).as("version %d", v).isNotEmpty();
      assertThat(DeltaLogFiles.actions(table, v, "metaData")).as("version %d", v).isEmpty();
    }
    // Every row once, qty read as BIGINT, and null in the column the job never knew.
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      expected.add(
          Arrays.asList(
              i,
              EvolvingRows.bucket(i),
              (long) EvolvingRows.qtyV1(i),
              Arrays.asList(EvolvingRows.label(i)),
              null));
    }
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    StructType schema = DeltaLogFiles.snapshot(table).getSchema();
    assertThat(schema.fieldNames()).containsExactly("id", "bucket", "qty", "info", "extra");
    assertThat(schema.get("qty").getDataType()).isEqualTo(LongType.LONG);
  }

  /** What another writer does to column {@code qty}, which the job writes. */
  enum Change {
    DROP("column 'qty' that the job writes was dropped from the table (or renamed)"),
    RENAME("column 'qty' was renamed to 'quantity'");

    final String message;

    Change(String message) {
      this.message = message;
    }

    StructType apply(StructType schema) {
      List<StructField> fields = new ArrayList<>();
      for (StructField field : schema.fields()) {
        if (!field.getName().equals("qty")) {
          fields.add(field);
        } else if (this == RENAME) {
          fields.add(
              new StructField(
                  "quantity", field.getDataType(), field.isNullable(), field.getMetadata()));
        }
      }
      return new StructType(fields);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Change.class)
  void aColumnTheJobWritesChangedByAnotherWriterFailsTheJobAndNothingOfItLands(Change change)
      throws Exception {
    String table = dir.resolve("broken-" + change).toUri().toString();
    SourceGate gate = SourceGate.in(shared);
    // Two restarts: each attempt writes and checkpoints, and each commit is refused again.
    JobClient job = startHeldAtTheGate(table, gate, 2);
    long sentBeforeTheGate = gate.emitted();

    long changed = changeSchema(table, change::apply);
    List<List<Object>> atTheChange = DeltaTableReader.readAll(table);
    gate.open();

    assertThatThrownBy(() -> job.getJobExecutionResult().get())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("conflicts with a concurrent change to the table")
                    .contains("changed under the job (version " + changed + ")")
                    .contains(change.message)
                    .contains("Nothing of this checkpoint was committed")
                    // More retries cannot help: the table no longer reads the files.
                    .doesNotContain("sink.commit.max-retries"));
    assertThat(DeltaTableReader.version(table)).isEqualTo(changed);
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(atTheChange);
    assertThat(atTheChange).hasSize((int) sentBeforeTheGate).hasSizeLessThan((int) ROWS);
  }

  /**
   * Starts a job writing {@link #ROWS} rows of the first shape, and returns once its readers wait
   * at the gate and every row they sent is committed: the table is quiet until the gate opens.
   */
  private JobClient startHeldAtTheGate(String table, SourceGate gate, int restarts)
      throws Exception {
    DeltaSink sink = DeltaSink.builder().tablePath(table).rowType(V1).build();
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restarts(restarts).env();
    EvolvingRows.v1Rows(EvolvingRows.indexes(env, ROWS, gate, ROWS_BEFORE_THE_GATE)).sinkTo(sink);
    JobClient job = env.executeAsync("held at the gate");
    Await.until(job, "both readers wait at the gate", () -> gate.waiting() == 2);
    long sent = gate.emitted();
    Await.until(
        job, sent + " rows committed", () -> DeltaTableReader.readAll(table).size() == sent);
    assertThat(DeltaTableReader.version(table)).isPositive();
    return job;
  }

  /** Commits {@code change} of the table's schema as another writer; returns its version. */
  private static long changeSchema(String table, UnaryOperator<StructType> change) {
    try (DeltaTable other = TestTables.open(table)) {
      return other.metadata().evolveSchema(change.apply(other.snapshot().getSchema()), false);
    }
  }
}
