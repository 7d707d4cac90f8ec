/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.CommonTestUtils;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Rows are invisible to the catalog and to catalog-aware readers until the checkpoint that holds
 * them completes; then they are all there, as one new version.
 */
class UnityCatalogVisibilityITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TABLE = "main.default.visible";

  @RegisterExtension final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension();

  @Test
  void rowsBecomeVisibleExactlyWhenTheirCheckpointCompletes(@InjectMiniCluster MiniCluster cluster)
      throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of("t"));
    // No periodic checkpoints (Flink 2.3 may take the first one of a long interval at once): the
    // test triggers the one that commits.
    StreamExecutionEnvironment env = FLINK.job().parallelism(1).env();
    TestRows.source(env, 1_000_000, 500, 3)
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection)
                .tableName(TABLE)
                .rowType(TestRows.TYPE)
                .build());
    JobClient job = env.executeAsync("visibility");
    CommonTestUtils.waitForAllTaskRunning(cluster, job.getJobID(), false);
    // Rows have reached a data file of the table (the writer opened it at its first row)...
    long written = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (dataFiles(catalog.storageRoot()) == 0 && System.nanoTime() < written) {
      Thread.sleep(20);
    }
    assertThat(dataFiles(catalog.storageRoot())).isPositive();

    // ...but nothing is committed yet.
    assertThat(server.latestVersion(TABLE)).isZero();
    assertThat(read(connection)).isEmpty();

    cluster.triggerCheckpoint(job.getJobID()).get(1, TimeUnit.MINUTES);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (server.latestVersion(TABLE) < 1 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(server.latestVersion(TABLE)).isEqualTo(1);
    List<List<Object>> rows = read(connection);
    job.cancel().get(1, TimeUnit.MINUTES);

    // One version holding a gap-free prefix of the generated rows, each once.
    assertThat(rows).isNotEmpty();
    Set<Long> ids = new TreeSet<>();
    rows.forEach(r -> ids.add((Long) r.get(0)));
    assertThat(ids).hasSize(rows.size());
    assertThat(ids)
        .containsExactlyElementsOf(
            java.util.stream.LongStream.range(0, rows.size()).boxed().toList());
    assertThat(rows).containsExactlyInAnyOrderElementsOf(TestRows.expected(rows.size(), 3));
  }

  private static long dataFiles(java.nio.file.Path root) throws java.io.IOException {
    try (var files = java.nio.file.Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".parquet") && !p.toString().contains("_delta_log"))
          .count();
    }
  }

  private static List<List<Object>> read(UnityCatalogConnection connection) {
    return CatalogReads.rows(connection, TABLE);
  }
}
