/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.RefusedRecordPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic sink on path tables: many tables from one stream, created as their first rows arrive
 * and evolved as their shapes change, each exactly once through failures.
 */
class DynamicSinkITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);
  private final FaultCounter generatorFaults = FaultCounter.in(shared);

  private static final int BUCKETS = 7;

  @TempDir Path dir;

  @Test
  void manyTablesAreWrittenExactlyOnceThroughFailuresWhileTablesAppearAndEvolve() throws Exception {
    long count = 8_000;
    int tables = 6;
    // The generator fails right after the first row of the late table: its creation is inside a
    // checkpoint that never completes.
    long firstLate = (count / 2) / 2 * tables / tables;
    while (!new RoutedRows("db.", tables, count, -1, generatorFaults)
        .table(firstLate)
        .endsWith("late")) {
      firstLate++;
    }
    RoutedRows routes = new RoutedRows("db.", tables, count, firstLate, generatorFaults);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    TestRows.source(env, count, 4_000, BUCKETS)
        .map(FailingMapper.untilFired(injected, 2, 1_500))
        .sinkTo(sink(routes));
    env.execute("dynamic sink through failures");

    assertThat(injected.count()).isGreaterThanOrEqualTo(2);
    assertThat(generatorFaults.count()).isEqualTo(1);
    Map<String, List<List<Object>>> expected = routes.expected(count, BUCKETS);
    assertThat(expected).hasSize(tables + 1);
    expected.forEach(
        (table, rows) ->
            assertThat(DeltaTableReader.readAll(path(table)))
                .as("rows of %s", table)
                .hasSize(rows.size())
                .containsExactlyInAnyOrderElementsOf(rows));
  }

  @Test
  void twoJobsRacingToCreateTheSameFiftyTablesEachLandExactlyOnce(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    int tables = 50;
    long count = 5_000;
    SpreadRows first = new SpreadRows("race.", tables, 0, BUCKETS);
    SpreadRows second = new SpreadRows("race.", tables, count, BUCKETS);
    StreamExecutionEnvironment env1 = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    TestRows.source(env1, count, 5_000, BUCKETS).sinkTo(sink(first));
    StreamExecutionEnvironment env2 = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    TestRows.source(env2, count, 5_000, BUCKETS)
        .map(new FailingMapper(injected, 1, 1_000))
        .sinkTo(sink(second));
    var job1 = env1.executeAsync("first racer");
    var job2 = env2.executeAsync("second racer");
    job1.getJobExecutionResult().get();
    job2.getJobExecutionResult().get();

    assertThat(injected.count()).isGreaterThanOrEqualTo(1);
    // Losing a race to create a table cost the first job nothing: it never restarted.
    assertThat(cluster.getArchivedExecutionGraph(job1.getJobID()).get().getAllExecutionVertices())
        .extracting(v -> v.getCurrentExecutionAttempt().getAttemptNumber())
        .containsOnly(0);
    Map<String, List<List<Object>>> expected = first.expected(count);
    second.expected(count).forEach((table, rows) -> expected.get(table).addAll(rows));
    assertThat(expected).hasSize(tables);
    expected.forEach(
        (table, rows) -> {
          String path = path(table);
          assertThat(DeltaTableReader.readAll(path))
              .as("rows of %s", table)
              .hasSize(rows.size())
              .containsExactlyInAnyOrderElementsOf(rows);
        });
  }

  /**
   * With {@code sink.dynamic.refused-records = DEAD_LETTER}, the records of a table whose schema
   * cannot take them and of a name that makes no table go, through a failure, to the dead-letter
   * table, each once with its table, reason and row; the table beside them lands every row.
   */
  @Test
  void recordsTheirTablesRefuseGoToTheDeadLetterTableOnceAndTheOtherTablesGoOn() throws Exception {
    long count = 3_000;
    RowType narrow =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new IntType(), new IntType()},
            new String[] {"id", "bucket", "payload"});
    TestTables.create(dir.resolve("dlq/narrow").toUri().toString(), narrow, List.of(), Map.of())
        .close();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    TestRows.source(env, count, 3_000, BUCKETS)
        .map(FailingMapper.untilFired(injected, 1, 1_500))
        .sinkTo(
            DeltaSink.dynamic(new ThreeWays())
                .tableRoot(dir.toUri().toString())
                .option(DynamicSinkOptions.REFUSED_RECORDS, RefusedRecordPolicy.DEAD_LETTER)
                .option(DynamicSinkOptions.DEAD_LETTER_TABLE, "dlq.refused")
                .build());
    env.execute("dead letters");

    assertThat(injected.count()).isEqualTo(1);
    assertThat(DeltaTableReader.readAll(path("dlq.good")))
        .containsExactlyInAnyOrderElementsOf(
            TestRows.expected(count, BUCKETS).stream()
                .filter(r -> (long) r.get(0) % 3 == 0)
                .toList());
    assertThat(DeltaTableReader.readAll(path("dlq.narrow"))).isEmpty();
    List<List<Object>> letters = DeltaTableReader.readAll(path("dlq.refused"));
    Map<Long, List<Object>> byId = new HashMap<>();
    ObjectMapper json = new ObjectMapper();
    for (List<Object> letter : letters) {
      JsonNode row = json.readTree((String) letter.get(3));
      long id = row.get("id").asLong();
      assertThat(byId.put(id, letter)).as("letter of row %d once", id).isNull();
      assertThat(row.get("payload").asText()).isEqualTo("payload-" + id + "-" + "x".repeat(20));
      assertThat(letter.get(2)).isEqualTo("INSERT");
      if (id % 3 == 1) {
        assertThat(letter.get(0)).isEqualTo("dlq.narrow");
        assertThat((String) letter.get(1)).contains("payload");
      } else {
        assertThat(letter.get(0)).isEqualTo("dlq.bad name");
        assertThat((String) letter.get(1)).contains("'dlq.bad name' does not make a path");
      }
    }
    assertThat(byId.keySet())
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, count).filter(id -> id % 3 != 0).boxed().toList());
  }

  /**
   * Row {@code i} to {@code dlq.good}, {@code dlq.narrow} or {@code dlq.bad name} by {@code i % 3}.
   */
  private static final class ThreeWays implements DynamicRecordGenerator<RowData> {
    private transient DynamicTable[] tables;

    @Override
    public void generate(RowData row, Output out) throws Exception {
      if (tables == null) {
        tables =
            new DynamicTable[] {
              DynamicTable.of("dlq.good", TestRows.TYPE),
              DynamicTable.of("dlq.narrow", TestRows.TYPE),
              DynamicTable.of("dlq.bad name", TestRows.TYPE)
            };
      }
      out.collect(new DynamicRecord(tables[(int) (row.getLong(0) % 3)], row));
    }
  }

  private DynamicDeltaSink<RowData> sink(DynamicRecordGenerator<RowData> routes) {
    return DeltaSink.dynamic(routes)
        .tableRoot(dir.toUri().toString())
        .option(DeltaSinkOptions.TARGET_FILE_SIZE, MemorySize.parse("1mb"))
        .option(DynamicSinkOptions.COMMIT_PARALLELISM, 3)
        .build();
  }

  private String path(String table) {
    Path path = dir.resolve(table.replace('.', '/'));
    assertThat(Files.isDirectory(path)).as("table %s at %s", table, path).isTrue();
    return path.toUri().toString();
  }
}
