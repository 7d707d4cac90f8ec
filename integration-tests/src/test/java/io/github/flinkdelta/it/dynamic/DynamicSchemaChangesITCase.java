/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.github.flinkdelta.sparktestkit.SparkSql;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changes a source reports that no row type can say: a column renamed or dropped (tables truncated
 * or dropped: {@link DynamicTruncationITCase}). Renames and drops are applied through column
 * mapping in order with the rows, read back through Kernel and through delta-spark (in a child
 * JVM); rows of the old shape sent after the change land under the new names.
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
}
