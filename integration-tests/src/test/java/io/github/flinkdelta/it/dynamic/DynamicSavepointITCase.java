/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.Savepoints;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dynamic sink's job stopped with a savepoint, then resubmitted from it under a new job id with a
 * newer generator: its rows carry a new column, and one table's column is renamed. Every row of
 * both jobs lands once, under the new schema.
 */
class DynamicSavepointITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 5;
  private static final long ROWS = 6_000;
  private static final int TABLES = 3;

  @TempDir Path dir;

  @Test
  void aSavepointTakenBeforeASchemaChangeRestoresIntoTheChangedTablesExactlyOnce()
      throws Exception {
    JobClient first = start(null, false);
    String t0 = dir.resolve("sp/t0").toUri().toString();
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (versionOf(t0) < 2) {
      assertThat(System.nanoTime()).as("table t0 never reached version 2").isLessThan(deadline);
      Thread.sleep(50);
    }
    String savepoint = Savepoints.stop(first, dir.resolve("savepoints"));

    JobClient second = start(savepoint, true);
    assertThat(second.getJobID()).isNotEqualTo(first.getJobID());
    second.getJobExecutionResult().get(2, TimeUnit.MINUTES);

    long oldShape = 0;
    long newShape = 0;
    Set<Long> ids = new HashSet<>();
    for (int t = 0; t < TABLES; t++) {
      String table = dir.resolve("sp/t" + t).toUri().toString();
      try (var opened = TestTables.open(table)) {
        assertThat(opened.snapshot().getSchema().fieldNames())
            .containsExactly("id", "bucket", t == 0 ? "body" : "payload", "extra");
      }
      for (List<Object> row : DeltaTableReader.readAll(table)) {
        long id = (long) row.get(0);
        assertThat(ids.add(id)).as("row %d once", id).isTrue();
        assertThat(id % TABLES).isEqualTo(t);
        assertThat(row.subList(0, 3)).isEqualTo(TestRows.values(TestRows.row(id, BUCKETS)));
        if (row.get(3) == null) {
          oldShape++;
        } else {
          assertThat(row.get(3)).isEqualTo(id * 10);
          newShape++;
        }
      }
    }
    assertThat(ids).hasSize((int) ROWS);
    assertThat(oldShape).isPositive();
    assertThat(newShape).isPositive();
  }

  private JobClient start(String savepoint, boolean evolved) throws Exception {
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restarts(3).restoredFrom(savepoint).env();
    TestRows.source(env, ROWS, 1_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(new Shapes(evolved))
                .tableRoot(dir.toUri().toString())
                .uidPrefix("dynamic")
                .build())
        .uid("dynamic");
    return env.executeAsync(evolved ? "evolved job" : "first job");
  }

  private static long versionOf(String table) {
    try {
      return DeltaTableReader.version(table);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /**
   * Rows to {@code sp.t<id % 3>}; the evolved generator adds {@code extra} and renames {@code
   * payload} of {@code sp.t0} to {@code body} before its first row.
   */
  private static final class Shapes implements DynamicRecordGenerator<RowData> {

    private final boolean evolved;
    private transient List<DynamicTable> tables;

    Shapes(boolean evolved) {
      this.evolved = evolved;
    }

    @Override
    public void generate(RowData row, Output out) throws Exception {
      if (tables == null) {
        tables = new ArrayList<>();
        for (int t = 0; t < TABLES; t++) {
          tables.add(DynamicTable.of("sp.t" + t, evolved ? wide(t) : TestRows.TYPE));
        }
        if (evolved) {
          out.apply(TableChange.renameColumn("sp.t0", "payload", "body"));
        }
      }
      long id = row.getLong(0);
      DynamicTable table = tables.get((int) (id % TABLES));
      out.collect(
          new DynamicRecord(
              table,
              evolved ? GenericRowData.of(id, row.getInt(1), row.getString(2), id * 10) : row));
    }

    private static RowType wide(int table) {
      List<RowType.RowField> fields = new ArrayList<>(TestRows.TYPE.getFields());
      if (table == 0) {
        fields.set(2, new RowType.RowField("body", fields.get(2).getType()));
      }
      fields.add(new RowType.RowField("extra", new BigIntType()));
      return new RowType(fields);
    }
  }
}
