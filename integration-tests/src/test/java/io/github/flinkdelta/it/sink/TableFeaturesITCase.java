/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static io.github.flinkdelta.core.testing.FeatureTables.field;
import static io.github.flinkdelta.core.testing.FeatureTables.struct;
import static io.github.flinkdelta.core.testing.FeatureTables.writerFeatures;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.testing.FeatureTables;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Jobs on tables with features the sink honours: row tracking, and column defaults it is given. */
class TableFeaturesITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final int BUCKETS = 3;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void rowTrackingGivesEveryFileContiguousBaseRowIdsAcrossCheckpoints() throws Exception {
    long count = 3_000;
    Path root = dir.resolve("row-tracking");
    String table = root.toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, count, 1_000, BUCKETS)
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .tableProperty("delta.enableRowTracking", "true")
                .build());
    env.execute("row tracking");

    long nextRowId = 0;
    int commitsWithFiles = 0;
    long version = 1;
    for (Path commit = log(root, version); Files.exists(commit); commit = log(root, ++version)) {
      Long highWaterMark = null;
      boolean hasFiles = false;
      for (String line : Files.readAllLines(commit)) {
        JsonNode action = JSON.readTree(line);
        JsonNode add = action.get("add");
        if (add != null) {
          hasFiles = true;
          assertThat(add.path("baseRowId").isIntegralNumber()).as("baseRowId of %s", add).isTrue();
          assertThat(add.path("baseRowId").asLong())
              .as("baseRowId of %s", add)
              .isEqualTo(nextRowId);
          assertThat(add.path("defaultRowCommitVersion").isIntegralNumber())
              .as("defaultRowCommitVersion of %s", add)
              .isTrue();
          assertThat(add.path("defaultRowCommitVersion").asLong()).isEqualTo(version);
          nextRowId += JSON.readTree(add.get("stats").asText()).get("numRecords").asLong();
        }
        JsonNode domain = action.get("domainMetadata");
        if (domain != null && domain.path("domain").asText().equals("delta.rowTracking")) {
          highWaterMark =
              JSON.readTree(domain.get("configuration").asText())
                  .get("rowIdHighWaterMark")
                  .asLong();
        }
      }
      if (hasFiles) {
        commitsWithFiles++;
        assertThat(highWaterMark)
            .as("high-water mark of version %d", version)
            .isEqualTo(nextRowId - 1);
      }
    }

    assertThat(commitsWithFiles).isGreaterThan(2);
    assertThat(nextRowId).isEqualTo(count);
    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  @Test
  void aJobThatSuppliesTheDefaultedColumnWritesItsValues() throws Exception {
    long count = 500;
    Path root = dir.resolve("defaults");
    String table =
        FeatureTables.create(
            root,
            writerFeatures("allowColumnDefaults"),
            struct(
                field("id", "long", Map.of()),
                field("bucket", "integer", Map.of()),
                field("payload", "string", Map.of("CURRENT_DEFAULT", "'none'"))),
            Map.of());
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    TestRows.source(env, count, 1_000_000, BUCKETS)
        .sinkTo(DeltaSink.builder().tablePath(table).rowType(TestRows.TYPE).build());
    env.execute("column defaults");

    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
  }

  private static Path log(Path table, long version) {
    return table.resolve("_delta_log").resolve(String.format("%020d.json", version));
  }
}
