/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.schema.FormerColumns;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SharedSpark;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import io.github.flinkdelta.sink.dynamic.TableEventPolicy;
import io.github.flinkdelta.sparktestkit.SparkSql;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changes a source reports that no row type can say: a column renamed or dropped, a table truncated
 * or dropped. Renames and drops are applied through column mapping in order with the rows, read
 * back through Kernel and through delta-spark (in a child JVM); rows of the old shape sent after
 * the change land under the new names.
 */
class DynamicSchemaChangesITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 5;

  private static SparkSql spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SharedSpark.get();
  }

  @Test
  void aRenameAndADropApplyInOrderAndRowsOfTheOldShapeStillLand() throws Exception {
    long count = 3_000;
    RenamingRows rows = new RenamingRows("db.renamed", 1_200, 1_500, injected);
    StreamExecutionEnvironment env =
        FLINK.job().checkpointEveryMillis(100).restarts(3).parallelism(1).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .sinkTo(DeltaSink.dynamic(rows).tableRoot(dir.toUri().toString()).build());
    env.execute("rename and drop");

    assertThat(injected.count()).isEqualTo(1);
    String table = dir.resolve("db/renamed").toUri().toString();
    var snapshot =
        TableManager.loadSnapshot(table)
            .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
    assertThat(snapshot.getSchema().fieldNames()).containsExactly("id", "bucket", "new_name");
    assertThat(FormerColumns.of(snapshot.getTableProperties()).with("x", "y"))
        .contains("old_name=")
        .contains("payload=");
    List<List<Object>> expected = RenamingRows.expected(count, BUCKETS);
    assertThat(DeltaTableReader.readAll(table))
        .hasSize((int) count)
        .containsExactlyInAnyOrderElementsOf(expected);

    List<List<String>> read = spark.query("SELECT * FROM delta.`" + table + "`");
    assertThat(read)
        .hasSize((int) count)
        .containsExactlyInAnyOrderElementsOf(
            expected.stream().map(r -> r.stream().map(String::valueOf).toList()).toList());
    assertThat(spark.query("SELECT count(*) FROM delta.`" + table + "` WHERE new_name IS NULL"))
        .containsExactly(List.of("0"));
  }

  @Test
  void aTruncatedTableFailsTheJobNamingItUnlessTheEventsAreIgnored() throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    TestRows.source(env, 100, 1_000, BUCKETS)
        .sinkTo(DeltaSink.dynamic(new Truncating()).tableRoot(dir.toUri().toString()).build());
    assertThatThrownBy(() -> env.execute("truncate refused"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("db/events was truncated at the source")
                    .contains(DynamicSinkOptions.TABLE_EVENTS.key()));
    String table = dir.resolve("db/events").toUri().toString();
    // Nothing after the event was committed: the rows before it, if a checkpoint took them, only.
    assertThat(DeltaTableReader.readAll(table)).allMatch(r -> (long) r.get(0) < 50);

    StreamExecutionEnvironment ignoring =
        FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    TestRows.source(ignoring, 100, 1_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(new Truncating())
                .tableRoot(dir.resolve("ignoring").toUri().toString())
                .option(DynamicSinkOptions.TABLE_EVENTS, TableEventPolicy.IGNORE)
                .build());
    ignoring.execute("truncate ignored");
    assertThat(DeltaTableReader.readAll(dir.resolve("ignoring/db/events").toUri().toString()))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(100, BUCKETS));
  }

  /** Rows of one table, truncated at the source after row 49. */
  private static final class Truncating implements DynamicRecordGenerator<RowData> {
    private transient DynamicTable table;

    @Override
    public void generate(RowData row, Output out) throws Exception {
      if (table == null) {
        table = DynamicTable.of("db.events", TestRows.TYPE);
      }
      out.collect(new DynamicRecord(table, row));
      if (row.getLong(0) == 49) {
        out.apply(TableChange.truncateTable("db.events"));
      }
    }
  }
}
