/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with a primary key through the dynamic sink: each table holds exactly the changelog's last
 * value of each of its keys after failures, with deletion vectors as the single-table sink writes
 * them, beside an appending table in the same job.
 */
class DynamicUpsertITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  @TempDir Path dir;

  @Test
  void keyedTablesHoldEachKeysLastValueExactlyThroughFailures() throws Exception {
    assertExactThroughFailures(DeltaSinkOptions.KeyIndex.HEAP);
  }

  @Test
  void keyedTablesHoldEachKeysLastValueWithTheIndexInTheStateBackend() throws Exception {
    assertExactThroughFailures(DeltaSinkOptions.KeyIndex.STATE_BACKEND);
  }

  private void assertExactThroughFailures(DeltaSinkOptions.KeyIndex index) throws Exception {
    long count = 12_000;
    Changelog changelog = new Changelog(700);
    ChangelogTables tables = new ChangelogTables("cdc.", 4);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    changelog
        .source(env, 0, count, 6_000)
        .map(FailingMapper.untilFired(injected, 2, 4_000))
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .setParallelism(1)
        .sinkTo(
            DeltaSink.dynamic(tables)
                .tableRoot(dir.toUri().toString())
                // A key's changes reach one router, in order, and from it their upsert writer.
                .distributeBy(ChangelogTables.byKey())
                .option(DeltaSinkOptions.UPSERT_KEY_INDEX, index)
                .build());
    env.execute("dynamic upserts through failures");

    assertThat(injected.count()).isEqualTo(2);
    Map<String, Map<Long, List<Object>>> expected = tables.expected(changelog, count);
    expected.forEach(
        (table, rows) -> {
          String path = path(table);
          UpsertAssert.assertExact(path, rows);
          UpsertAssert.assertNoVersionRepeatsAKey(path);
        });
    // The appending table beside them holds every change once, as an insert.
    assertThat(DeltaTableReader.readAll(path("cdc.audit"))).hasSize((int) count);
    assertThat(DeltaTableReader.readAll(path("cdc.audit")).stream().map(r -> r.get(2)).distinct())
        .hasSize((int) count);
  }

  private String path(String table) {
    return dir.resolve(table.replace('.', '/')).toUri().toString();
  }
}
