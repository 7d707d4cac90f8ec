/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upsert jobs end to end: a changelog with updates, redelivered inserts, deletes (of absent keys
 * too) and keys that move between partitions, written with failures and restarts; the table read
 * back through Kernel (deletion vectors applied) must equal the replayed changelog, one row per
 * live key.
 */
class UpsertITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  @TempDir Path dir;

  @Test
  void anUnpartitionedTableAtParallelismFourHoldsTheLastValueOfEveryKeyAfterFailures()
      throws Exception {
    String table = dir.resolve("unpartitioned").toUri().toString();
    Changelog changelog = new Changelog(500);
    FaultCounter faults = FaultCounter.in(shared);
    long changes = 20_000;

    StreamExecutionEnvironment env =
        FLINK.job().parallelism(4).checkpointEveryMillis(100).restarts(3).env();
    changelog
        .source(env, 0, changes, 5_000)
        .map(new FailingMapper(faults, 2, 7_000))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(sink(table).build());
    env.execute("upserts, unpartitioned");

    assertThat(faults.count()).isEqualTo(2);
    assertExact(table, changelog.expected(changes));
    assertThat(dvAdds(table)).as("adds with deletion vectors").isNotEmpty();
  }

  @Test
  void keysMoveBetweenPartitionsOfAPartitionedTable() throws Exception {
    String table = dir.resolve("partitioned").toUri().toString();
    Changelog changelog = new Changelog(300);
    long changes = 10_000;

    StreamExecutionEnvironment env = FLINK.job().parallelism(2).checkpointEveryMillis(100).env();
    changelog.source(env, 0, changes, 5_000).sinkTo(sink(table).partitionColumns("bucket").build());
    env.execute("upserts, partitioned");

    assertExact(table, changelog.expected(changes));
  }

  @Test
  void aSinkOnATableWithRowsReadsTheirKeysFirst() throws Exception {
    String table = dir.resolve("existing").toUri().toString();
    Changelog changelog = new Changelog(400);
    long first = 3_000;
    long second = 6_000;

    StreamExecutionEnvironment env = FLINK.job().parallelism(2).checkpointEveryMillis(100).env();
    changelog.source(env, 0, first, 5_000).sinkTo(sink(table).build());
    env.execute("upserts, first job");
    assertExact(table, changelog.expected(first));

    // A new job without state: its index comes from the table's rows.
    env = FLINK.job().parallelism(3).checkpointEveryMillis(100).env();
    changelog.source(env, first, second - first, 5_000).sinkTo(sink(table).build());
    env.execute("upserts, second job");
    assertExact(table, changelog.expected(second));
  }

  @Test
  void parallelismOneWithoutGenericTypesHoldsTheLastValueOfEveryKey() throws Exception {
    String table = dir.resolve("p1").toUri().toString();
    Changelog changelog = new Changelog(50);
    long changes = 5_000;

    // No Kryo anywhere: the sink's inner types have serializers of their own.
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(1).checkpointEveryMillis(100).withoutGenericTypes().env();
    changelog.source(env, 0, changes, 5_000).sinkTo(sink(table).build());
    env.execute("upserts, parallelism 1");

    assertExact(table, changelog.expected(changes));
  }

  private static DeltaSinkBuilder sink(String table) {
    return DeltaSink.builder().tablePath(table).rowType(Changelog.TYPE).primaryKey("id");
  }

  static void assertExact(String table, Map<Long, List<Object>> expected) {
    List<List<Object>> rows = DeltaTableReader.readAll(table);
    Map<Object, Long> perKey =
        rows.stream().collect(Collectors.groupingBy(row -> row.get(0), Collectors.counting()));
    assertThat(perKey.values()).as("rows per key").allMatch(count -> count == 1);
    assertThat(rows).containsExactlyInAnyOrderElementsOf(Changelog.rows(expected));
  }

  private static List<JsonNode> dvAdds(String table) {
    return DeltaLogFiles.addsFrom(table, 0).stream()
        .filter(add -> add.hasNonNull("deletionVector"))
        .toList();
  }
}
