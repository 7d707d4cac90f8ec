/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous read of a Unity Catalog managed table while the catalog has outages: the source's
 * enumerator, which alone asks the catalog for versions, waits them out, so a reading job that may
 * not restart at all copies the table exactly.
 */
class DeltaSourceCatalogOutageITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String LOAD =
      "GET /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
  private static final String TABLE = "main.default.read_through_outages";
  private static final int BUCKETS = 3;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token("t0k"));

  @TempDir Path dir;

  @Test
  void aContinuousReadWaitsOutACatalogOutageAndCopiesTheTableExactly() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of("t0k"));
    write(connection, 0, 2_000);
    String copy = dir.resolve("copy").toUri().toString();
    // No restarts: a reader that gave up on the catalog would fail the job.
    StreamExecutionEnvironment reading = FLINK.job().checkpointEveryMillis(100).env();
    reading
        .fromSource(
            DeltaSource.builder()
                .unityCatalog(connection)
                .tableName(TABLE)
                .continuous()
                .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(100))
                .build(),
            WatermarkStrategy.noWatermarks(),
            "delta source")
        .sinkTo(DeltaSink.builder().tablePath(copy).rowType(TestRows.TYPE).build());
    JobClient reader = reading.executeAsync("reader");
    Await.until(reader, "the copy to hold the first rows", () -> rows(copy) >= 2_000);

    // Nothing but the reader's enumerator asks the catalog now. The outage is longer than the
    // catalog client's own retries of one call.
    server.faults().failNext(LOAD, 12, 503);
    Await.until(reader, "the outage to fire", () -> server.faults().failedCalls(LOAD) >= 12);
    write(connection, 2_000, 2_000);
    Await.until(reader, "the copy to hold every row", () -> rows(copy) >= 4_000);
    reader.cancel().get();

    assertThat(server.faults().failedCalls(LOAD)).isEqualTo(12);
    assertThat(DeltaTableReader.readAll(copy))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(4_000, BUCKETS));
  }

  private static void write(UnityCatalogConnection connection, long from, long count)
      throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).env();
    TestRows.source(env, from + count, 100_000, BUCKETS)
        .filter(row -> row.getLong(0) >= from)
        .sinkTo(sink(connection));
    env.execute("rows " + from + " to " + (from + count - 1));
  }

  private static long rows(String table) {
    try {
      return DeltaTableReader.readAll(table).size();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private static DeltaSink sink(UnityCatalogConnection connection) {
    return DeltaSink.builder()
        .unityCatalog(connection)
        .tableName(TABLE)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .build();
  }
}
