/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark command on small sizes, so that it keeps working: every contender runs and lands
 * every row (each run checks its Parquet row count against the rows generated), and the results
 * carry the fields the README promises. The figures themselves are not asserted: speed is measured
 * by the command, never by a test.
 */
class BenchmarkCommandITCase {

  @TempDir Path out;

  @Test
  void comparisonWritesOneResultPerContenderAndScenario() throws Exception {
    BenchmarkMain.main(
        new String[] {
          "--rows",
          "40000",
          "--sections",
          "comparison",
          "--scenarios",
          "partitioned",
          "--repeats",
          "1",
          "--out",
          out.toString()
        });

    List<Map<String, Object>> results =
        new ObjectMapper()
            .readValue(
                out.resolve("benchmark-results.json").toFile(),
                new TypeReference<List<Map<String, Object>>>() {});
    assertThat(results)
        .extracting(r -> r.get("contender"))
        .containsExactlyElementsOf(Contender.NAMES);
    for (Map<String, Object> result : results) {
      assertThat(result)
          .containsKeys(
              "contender",
              "scenario",
              "rows_missing",
              "rows_duplicated",
              "rows_per_second",
              "rows_per_second_per_core",
              "rows_after_warm_up",
              "rows_per_second_after_warm_up",
              "rows_per_second_of_repetitions",
              "rows_per_second_after_warm_up_of_repetitions",
              "commit_latency_p50_ms",
              "commit_latency_p99_ms",
              "commit_latency_p99_after_warm_up_ms",
              "commits_after_warm_up",
              "files",
              "peak_heap_bytes")
          .containsEntry(
              "rows",
              result.get("contender").equals(DiscardingContender.NAME)
                  ? 40_000 * DiscardingContender.ROWS_FACTOR
                  : 40_000);
      @SuppressWarnings("unchecked")
      Map<String, Object> cpu = (Map<String, Object>) result.get("cpu_per_row_after_warm_up");
      assertThat(cpu).containsKeys("source_and_writer", "committer", "other_threads", "jit_and_gc");
      if (result.get("contender").equals(DiscardingContender.NAME)) {
        // No table: its writers count what they drop, and every row must have reached them.
        assertThat(result)
            .containsEntry("rows_missing", 0)
            .containsEntry("rows_duplicated", 0)
            .containsEntry("commits", 0)
            .containsEntry("files", 0);
        continue;
      }
      assertThat(result).containsEntry("codec", "SNAPPY");
      assertThat(((Number) result.get("commits")).intValue()).isPositive();
      if (result.get("contender").toString().startsWith("delta-")) {
        // A run of this sink fails unless its table holds every generated row exactly once.
        assertThat(result).containsEntry("rows_missing", 0).containsEntry("rows_duplicated", 0);
      }
      // One repetition per contender here; which of several reports it, RunResultTest checks.
      assertThat((List<?>) result.get("rows_per_second_of_repetitions")).hasSize(1);
      assertThat((List<?>) result.get("rows_per_second_after_warm_up_of_repetitions")).hasSize(1);
      if (!isFigure(result.get("rows_per_second_after_warm_up"))) {
        assertThat(result).containsEntry("rows_after_warm_up", 0);
      }
    }
    assertThat(out.resolve("benchmark-throughput.png")).isNotEmptyFile();
  }

  @Test
  void measurementsRunOnSmallTables() throws Exception {
    Path work = Files.createDirectories(out.resolve("work"));

    Figures partitions =
        ChildRuns.child(ManyPartitionsRun.class, "512m", work, "3000", "3", "96mb");
    assertThat(partitions.values())
        .containsEntry("rows_landed", 9_000)
        .containsEntry("partitions_written", 3_000);

    Figures versions = ChildRuns.child(LargeTableRun.class, "1g", work, "versions", "25");
    assertThat(versions.values()).containsEntry("table_version", 25);
    assertThat(((Number) versions.values().get("job_commits")).intValue()).isPositive();

    Figures soak = ChildRuns.child(SoakRun.class, "512m", work, "5", "2000");
    assertThat(soak.values()).containsEntry("rows_landed", 10_000);
    assertThat((List<?>) soak.values().get("heap_mb_at_each_tenth")).hasSize(10);
    // A short run cannot show a trend; it only must not balloon.
    assertThat(((Number) soak.values().get("heap_max_after_warmup_mb")).doubleValue())
        .isLessThan(400);

    Figures state = CommitterStateSize.measure(work);
    assertThat(((Number) state.values().get("committable_bytes_per_file_2000")).doubleValue())
        .isBetween(20.0, 2_000.0);
  }

  /**
   * The upsert section scaled down (a changelog of 20,000 changes over 2,000 keys, an index built
   * on a table of 20,000 rows) and a short upsert soak: every contender's table holds exactly the
   * live keys the changelog leaves (a run of this sink fails otherwise, a peer's says so in {@code
   * exact}), and the figures the README promises are there.
   */
  @Test
  void upsertsRunOnASmallChangelog() throws Exception {
    BenchmarkMain.main(
        new String[] {
          "--sections",
          "upsert",
          "--changes",
          "20000",
          "--keys",
          "2000",
          "--index-rows",
          "0",
          "--upsert-state-backends",
          "hashmap",
          "--out",
          out.toString()
        });

    Map<String, Object> upserts =
        new ObjectMapper()
            .readValue(
                out.resolve("benchmark-upserts.json").toFile(),
                new TypeReference<Map<String, Object>>() {});
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> runs = (List<Map<String, Object>>) upserts.get("runs");
    assertThat(runs)
        .extracting(r -> r.get("contender"))
        .containsExactlyElementsOf(UpsertContender.NAMES);
    for (Map<String, Object> run : runs) {
      assertThat(run)
          .containsKeys(
              "changes_per_second",
              "cpu_us_per_change",
              "read_ms",
              "data_files",
              "delete_files",
              "peak_heap_after_gc_mb")
          .containsEntry("changes", 20_000)
          .containsEntry("exact", true);
      assertThat(run.get("rows_read")).isEqualTo(run.get("live_keys_expected"));
    }
    assertThat(((Number) runs.get(0).get("index_state_bytes_per_live_key")).doubleValue())
        .isPositive();
    assertThat(upserts.get("index_build")).isNull();
  }

  /**
   * The upsert section's index build on a table of 20,000 rows, and the soak's upsert flavour for
   * five seconds: both tables hold exactly the live keys.
   */
  @Test
  void anIndexBuildAndAnUpsertSoakRun() throws Exception {
    Path work = Files.createDirectories(out.resolve("work"));
    Figures index = ChildRuns.child(IndexBuildRun.class, "1g", work, "20000", "2000");
    UpsertReport.indexReadTimes(ChildRuns.logOf(IndexBuildRun.class, work, "20000", "2000"), index);
    assertThat(index.values()).containsEntry("table_rows", 20_000);
    assertThat(index.values().get("rows_read")).isEqualTo(index.values().get("live_keys_expected"));
    assertThat(((Number) index.values().get("job_first_commit_ms")).longValue()).isPositive();
    // Each of the two writers logs its read of the table's keys.
    assertThat((List<?>) index.values().get("writer_key_read_ms")).hasSize(2);

    Figures soak = ChildRuns.child(SoakRun.class, "512m", work, "5", "2000", "upsert");
    assertThat(soak.values().get("rows_read")).isEqualTo(soak.values().get("live_keys_expected"));
    assertThat((List<?>) soak.values().get("heap_mb_at_each_tenth")).hasSize(10);
  }

  /**
   * The compaction section scaled down (20 commits of 1,000 rows, a compaction every 4 commits):
   * every run reads back exactly the rows written (a run fails otherwise), the compacting stream
   * ran a compaction, and both targets are judged.
   */
  @Test
  void compactionRunsOnAShortStream() throws Exception {
    BenchmarkMain.main(
        new String[] {
          "--sections",
          "compaction",
          "--compaction-commits",
          "20",
          "--compaction-rows",
          "1000",
          "--compaction-trigger-commits",
          "4",
          "--out",
          out.toString()
        });

    Map<String, Object> report =
        new ObjectMapper()
            .readValue(
                out.resolve("benchmark-compaction.json").toFile(),
                new TypeReference<Map<String, Object>>() {});
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> runs = (List<Map<String, Object>>) report.get("runs");
    assertThat(runs).extracting(r -> r.get("run")).containsExactlyElementsOf(CompactionRun.KINDS);
    for (Map<String, Object> run : runs) {
      assertThat(run)
          .containsKeys(
              "table_version",
              "data_commits",
              "data_files",
              "read_ms",
              "read_again_ms",
              "commit_latency_p50_ms",
              "commit_latency_p99_ms",
              "compactions",
              "compaction_mb_per_s")
          .containsEntry("rows", 20_000)
          .containsEntry("rows_read", 20_000)
          .containsEntry("exact", true);
      assertThat(run.get("checksum_read")).isEqualTo(run.get("checksum_expected"));
    }
    Map<String, Object> stream = runs.get(0);
    Map<String, Object> compacting = runs.get(1);
    Map<String, Object> large = runs.get(2);
    assertThat(((Number) stream.get("data_commits")).intValue()).isGreaterThanOrEqualTo(20);
    assertThat(isFigure(stream.get("commit_latency_p99_ms"))).isTrue();
    assertThat(stream).containsEntry("compactions", 0);
    // Whether a compaction commits depends on how fast this machine rewrites while the stream
    // commits; that one starts (after the fourth commit) and ends somehow is certain.
    long committed = ((Number) compacting.get("compactions")).longValue();
    assertThat(
            committed
                + ((Number) compacting.get("compaction_runs_failed")).longValue()
                + ((Number) compacting.get("compaction_runs_cancelled")).longValue()
                + ((Number) compacting.get("compaction_runs_given_up")).longValue())
        .isPositive();
    assertThat(compacting.get("compactions")).isEqualTo(compacting.get("compactions_logged"));
    if (committed > 0) {
      assertThat(isFigure(compacting.get("compaction_mb_per_s"))).isTrue();
    }
    assertThat(large).containsEntry("data_commits", 1);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> targets = (List<Map<String, Object>>) report.get("targets");
    assertThat(targets)
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.get("verdict")).isIn("met", "missed"));
  }

  /**
   * The read section on 20,000 rows, one repetition, a continuous read of 3 versions and one of 4
   * files on slowed S3: every reader on every scenario counted exactly the rows written (a run
   * fails otherwise), the latency figures and their target are there, and the slow read's S3
   * requests were slowed and its checkpoints measured.
   */
  @Test
  void readsRunOnASmallTable() throws Exception {
    BenchmarkMain.main(
        new String[] {
          "--sections",
          "read",
          "--read-rows",
          "20000",
          "--scenarios",
          "partitioned",
          "--repeats",
          "1",
          "--read-latency-versions",
          "3",
          "--slow-storage-files",
          "4",
          "--slow-storage-delay-ms",
          "50",
          "--out",
          out.toString()
        });

    Map<String, Object> report =
        new ObjectMapper()
            .readValue(
                out.resolve("benchmark-reads.json").toFile(),
                new TypeReference<Map<String, Object>>() {});
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> readers = (List<Map<String, Object>>) report.get("readers");
    assertThat(readers)
        .extracting(r -> r.get("scenario") + " " + r.get("reader"))
        .containsExactlyInAnyOrder(
            "partitioned delta-source", "partitioned iceberg-source", "partitioned parquet-files");
    for (Map<String, Object> reader : readers) {
      assertThat(reader).containsEntry("rows", 20_000).containsKey("cpu_ns_per_row");
      assertThat(((Number) reader.get("rows_per_second")).doubleValue()).isPositive();
    }
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> ratios = (List<Map<String, Object>>) report.get("ratios");
    assertThat(ratios)
        .hasSize(1)
        .allSatisfy(
            r ->
                assertThat(r)
                    .containsKeys("delta-source / iceberg-source", "delta-source / parquet-files"));
    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) report.get("latency");
    assertThat(latency).containsEntry("versions", 3).doesNotContainKey("failed");
    for (String figure :
        List.of(
            "first_row_latency_p50_ms",
            "first_row_latency_p99_ms",
            "last_row_latency_p50_ms",
            "last_row_latency_p99_ms")) {
      assertThat(isFigure(latency.get(figure))).as(figure).isTrue();
    }
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> targets = (List<Map<String, Object>>) report.get("targets");
    assertThat(targets)
        .singleElement()
        .satisfies(t -> assertThat(t.get("verdict")).isIn("met", "missed"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> slowStorage = (List<Map<String, Object>>) report.get("slow_storage");
    assertThat(slowStorage)
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run).doesNotContainKey("failed").containsEntry("files", 4);
              assertThat(((Number) run.get("s3_requests_delayed")).longValue()).isPositive();
              assertThat(isFigure(run.get("checkpoint_p50_ms"))).isTrue();
              assertThat(isFigure(run.get("alignment_max_ms"))).isTrue();
            });
  }

  private static boolean isFigure(Object value) {
    return value instanceof Number n && !Double.isNaN(n.doubleValue());
  }
}
