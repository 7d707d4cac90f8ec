/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming append job that compacts its table while it runs ({@code sink.compaction.*}): through
 * task failures, every row ends in the table exactly once, compaction versions (all removes and
 * adds with {@code dataChange = false}) ran between the stream's commits, no file is added twice,
 * and the table holds far fewer files than the stream wrote.
 */
class InJobCompactionITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 3;

  @TempDir Path dir;

  @Test
  void aCompactingStreamThroughFailuresHoldsEveryRowOnceInFewFiles() throws Exception {
    long count = 8_000;
    String table = dir.resolve("compacting").toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 2_000, BUCKETS)
        .map(new FailingMapper(injected, 2, 1_500))
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 3)
                .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 3)
                .option(DeltaSinkOptions.COMPACTION_TARGET_FILE_SIZE, MemorySize.parse("8 mb"))
                .build());
    env.execute("compacting stream");

    assertThat(injected.count()).isGreaterThanOrEqualTo(2);
    TestRows.assertTableHoldsExactly(table, count, BUCKETS);
    int compactions = 0;
    long streamed = 0;
    Map<String, Integer> added = new HashMap<>();
    for (long version : DeltaLogFiles.versions(table)) {
      List<JsonNode> adds = DeltaLogFiles.actions(table, version, "add");
      List<JsonNode> removes = DeltaLogFiles.actions(table, version, "remove");
      adds.forEach(add -> added.merge(add.get("path").asText(), 1, Integer::sum));
      if (!removes.isEmpty()) {
        compactions++;
        assertThat(adds).allSatisfy(a -> assertThat(a.get("dataChange").asBoolean()).isFalse());
        assertThat(removes).allSatisfy(r -> assertThat(r.get("dataChange").asBoolean()).isFalse());
        assertThat(DeltaLogFiles.actions(table, version, "txn"))
            .singleElement()
            .satisfies(txn -> assertThat(txn.get("appId").asText()).endsWith(".compaction"));
      } else {
        streamed += adds.size();
      }
    }
    assertThat(compactions).isPositive();
    assertThat(added.values()).as("times each data file was added").containsOnly(1);
    assertThat(DeltaTableReader.fileCount(table)).isLessThan(streamed / 2);
  }
}
