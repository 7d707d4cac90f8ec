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
 * by the command, never by a test. This class takes the append comparison, the measurements and
 * compaction; {@link KeyedAndReadSectionsITCase} the sections of keyed, read and dynamic tables, in
 * a JVM of its own beside this one.
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

  private static boolean isFigure(Object value) {
    return value instanceof Number n && !Double.isNaN(n.doubleValue());
  }
}
