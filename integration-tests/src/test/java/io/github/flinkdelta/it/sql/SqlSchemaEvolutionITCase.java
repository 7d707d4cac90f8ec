/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.EvolvingRows;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code 'sink.schema-evolution'} from Flink SQL: a table declared with other columns than the
 * existing Delta table (one more column, a nested field more, a wider type, another order) evolves
 * the Delta table when the INSERT is planned.
 */
class SqlSchemaEvolutionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String COLUMNS =
      "note STRING, qty BIGINT, info ROW<label STRING, score INT>, id BIGINT NOT NULL, bucket INT";

  @TempDir Path dir;

  private String table;

  /** A Delta table of the first shape holding rows 0 to 9, written by a DataStream job. */
  @BeforeEach
  void firstShape() throws Exception {
    table = dir.resolve("events").toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    EvolvingRows.v1Rows(EvolvingRows.indexes(env, 10))
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(EvolvingRows.V1)
                .partitionColumns("bucket")
                .build());
    env.execute("first shape");
  }

  @Test
  void aDeclaredTableWithMoreAndWiderColumnsInAnotherOrderEvolvesTheDeltaTable() throws Exception {
    StreamTableEnvironment sql = sql();
    sql.executeSql(create("widen"));
    StringBuilder values = new StringBuilder();
    for (long i = 10; i < 13; i++) {
      values.append(i == 10 ? "" : ", ");
      values.append(
          String.format(
              "('%s', %d, ROW('%s', %d), %d, %d)",
              EvolvingRows.note(i),
              EvolvingRows.qtyV2(i),
              EvolvingRows.label(i),
              EvolvingRows.score(i),
              i,
              EvolvingRows.bucket(i)));
    }
    sql.executeSql("INSERT INTO events VALUES " + values).await();

    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < 10; i++) {
      expected.add(EvolvingRows.v1Read(i));
    }
    for (long i = 10; i < 13; i++) {
      expected.add(EvolvingRows.v2Read(i));
    }
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    // The Delta table keeps its column order and appends the new column.
    assertThat(DeltaLogFiles.snapshot(table).getSchema().fieldNames())
        .containsExactly("id", "bucket", "qty", "info", "note");
  }

  @Test
  void aDeclaredTableThatDiffersUnderModeNoneFailsTheInsertListingEveryDifference()
      throws Exception {
    long version = DeltaTableReader.version(table);
    StructType schema = DeltaLogFiles.snapshot(table).getSchema();
    StreamTableEnvironment sql = sql();
    sql.executeSql(create("none"));

    assertThatThrownBy(
            () -> sql.executeSql("INSERT INTO events VALUES ('n', 1, ROW('l', 1), 1, 1)").await())
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("column 'note' (string) of the rows is not in the table")
                    .contains("column 'info.score' (integer) of the rows is not in the table")
                    .contains("column 'qty' is integer in the table but long in the rows"));
    assertThat(DeltaTableReader.version(table)).isEqualTo(version);
    assertThat(DeltaLogFiles.snapshot(table).getSchema()).isEqualTo(schema);
  }

  private String create(String mode) {
    return "CREATE TABLE events ("
        + COLUMNS
        + ") PARTITIONED BY (bucket) WITH ('connector' = 'delta', 'table-path' = '"
        + table
        + "', 'sink.schema-evolution' = '"
        + mode
        + "')";
  }

  private static StreamTableEnvironment sql() {
    return StreamTableEnvironment.create(
        FLINK.job().checkpointEveryMillis(200).parallelism(1).env());
  }
}
