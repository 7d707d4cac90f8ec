/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.s3testkit.S3ProxyProcess;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tables of one job at the same bucket and path on two S3 endpoints, each with keys only its
 * endpoint accepts: each table's rows land at its own endpoint, exactly once. Hadoop's file-system
 * cache (by scheme, bucket and user) would give both tables the file system made first.
 */
class PerTableStorageOptionsITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TABLE = "s3a://lake/events";

  @TempDir static Path firstStore;
  @TempDir static Path secondStore;
  private static S3ProxyProcess first;
  private static S3ProxyProcess second;
  private static final String FIRST_SECRET = "first-secret-" + UUID.randomUUID();
  private static final String SECOND_SECRET = "second-secret-" + UUID.randomUUID();

  @BeforeAll
  static void startStores() {
    first = S3ProxyProcess.start(firstStore, "first-key", FIRST_SECRET);
    second = S3ProxyProcess.start(secondStore, "second-key", SECOND_SECRET);
    first.createBucket("lake");
    second.createBucket("lake");
  }

  @AfterAll
  static void stopStores() {
    first.close();
    second.close();
  }

  @Test
  void eachTableWritesThroughItsOwnEndpointAndKeys() throws Exception {
    long count = 2_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).restarts(2).env();
    DataStream<RowData> rows = TestRows.source(env, count, 4_000, 3);
    rows.sinkTo(sink(storage(first, "first-key", FIRST_SECRET))).uid("first-sink");
    rows.sinkTo(sink(storage(second, "second-key", SECOND_SECRET))).uid("second-sink");
    env.execute("two endpoints");

    for (var store :
        Map.of(
                first, storage(first, "first-key", FIRST_SECRET),
                second, storage(second, "second-key", SECOND_SECRET))
            .entrySet()) {
      assertThat(DeltaTableReader.readAll(TABLE, HadoopConfigurations.of(store.getValue())))
          .containsExactlyInAnyOrderElementsOf(TestRows.expected(count, 3));
      assertThat(commits(store.getKey())).isPositive();
    }
  }

  private static DeltaSink sink(Map<String, String> storage) {
    return DeltaSink.builder()
        .tablePath(TABLE)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .hadoopOptions(storage)
        .build();
  }

  private static Map<String, String> storage(S3ProxyProcess s3, String key, String secret) {
    return Map.of(
        "fs.s3a.endpoint",
        s3.endpoint().toString(),
        "fs.s3a.endpoint.region",
        "us-east-1",
        "fs.s3a.path.style.access",
        "true",
        "fs.s3a.connection.ssl.enabled",
        "false",
        "fs.s3a.access.key",
        key,
        "fs.s3a.secret.key",
        secret);
  }

  /** The commit files the store holds for the table, read from its disk. */
  private static long commits(S3ProxyProcess s3) throws Exception {
    Path log = s3.bucketDirectory("lake").resolve("events/_delta_log");
    try (Stream<Path> files = Files.list(log)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".json")).count();
    }
  }
}
