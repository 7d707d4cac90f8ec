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
          "200000",
          "--sections",
          "comparison",
          "--scenarios",
          "partitioned",
          "--repeats",
          "2",
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
          .containsEntry("rows", 200_000)
          .containsEntry("codec", "SNAPPY");
      assertThat(((Number) result.get("commits")).intValue()).isPositive();
      if (result.get("contender").toString().startsWith("delta-")) {
        // A run of this sink fails unless its table holds every generated row exactly once.
        assertThat(result).containsEntry("rows_missing", 0).containsEntry("rows_duplicated", 0);
      }
      // The median of two repetitions is the slower: no contender is reported by its luckier run.
      // It goes by rows/s after warm-up when every repetition lasted past the warm-up, else by
      // whole-job rows/s (which of the two depends on how fast this machine ran the job).
      List<?> repetitions = (List<?>) result.get("rows_per_second_of_repetitions");
      List<?> warmRepetitions =
          (List<?>) result.get("rows_per_second_after_warm_up_of_repetitions");
      assertThat(repetitions).hasSize(2);
      assertThat(warmRepetitions).hasSize(2);
      boolean everyRunWarmedUp =
          warmRepetitions.stream().allMatch(BenchmarkCommandITCase::isFigure);
      String medianBy = everyRunWarmedUp ? "rows_per_second_after_warm_up" : "rows_per_second";
      List<?> figures = everyRunWarmedUp ? warmRepetitions : repetitions;
      assertThat(((Number) result.get(medianBy)).doubleValue())
          .as("%s of %s", medianBy, result.get("contender"))
          .isEqualTo(
              figures.stream().mapToDouble(r -> ((Number) r).doubleValue()).min().orElseThrow());
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
        BenchmarkMain.child(ManyPartitionsRun.class, "512m", work, "3000", "3", "96mb");
    assertThat(partitions.values())
        .containsEntry("rows_landed", 9_000)
        .containsEntry("partitions_written", 3_000);

    Figures versions = BenchmarkMain.child(LargeTableRun.class, "1g", work, "versions", "60");
    assertThat(versions.values()).containsEntry("table_version", 60);
    assertThat(((Number) versions.values().get("job_commits")).intValue()).isPositive();

    Figures soak = BenchmarkMain.child(SoakRun.class, "512m", work, "30", "2000");
    assertThat(soak.values()).containsEntry("rows_landed", 60_000);
    assertThat((List<?>) soak.values().get("heap_mb_at_each_tenth")).hasSize(10);
    // A short run cannot show a trend; it only must not balloon.
    assertThat(((Number) soak.values().get("heap_max_after_warmup_mb")).doubleValue())
        .isLessThan(400);

    Figures state = CommitterStateSize.measure(work);
    assertThat(((Number) state.values().get("committable_bytes_per_file_2000")).doubleValue())
        .isBetween(20.0, 2_000.0);
  }

  private static boolean isFigure(Object value) {
    return value instanceof Number n && !Double.isNaN(n.doubleValue());
  }
}
