package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Comparator;
import java.util.List;

/**
 * The figures of one contender on one scenario, as written to {@code benchmark-results.json}.
 *
 * @param rowsPerSecondPerCore rows per second of CPU time the whole process used (job, observer and
 *     embedded catalog included)
 * @param commitLatencyP50Ms from a checkpoint's completion (its last acknowledgement) to the moment
 *     its commit was visible, over every checkpoint that committed data
 * @param commitLatencyP99AfterWarmUpMs the same over the checkpoints completed after the first
 *     {@link ContenderRun#WARM_UP_MILLIS} of the job, when the JIT compilers no longer compete with
 *     the sink for the cores
 * @param peakHeapBytes the largest heap in use right after a garbage collection
 * @param rowsPerSecondOfRepetitions rows/s of every repetition, in order; the other figures are
 *     those of the {@link #median} repetition
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunResult(
    String contender,
    String scenario,
    long rows,
    double seconds,
    double rowsPerSecond,
    double cpuSeconds,
    double rowsPerSecondPerCore,
    long parquetBytes,
    double parquetMbPerSecond,
    long files,
    int commits,
    double commitLatencyP50Ms,
    double commitLatencyP99Ms,
    double commitLatencyMaxMs,
    int commitsAfterWarmUp,
    double commitLatencyP99AfterWarmUpMs,
    long peakHeapBytes,
    long maxHeapBytes,
    String codec,
    int parallelism,
    long checkpointIntervalMs,
    long rowGroupBytes,
    boolean objectReuse,
    int availableCores,
    String javaVersion,
    double[] rowsPerSecondOfRepetitions) {

  /**
   * The repetition of median throughput; of an even number, the slower of the middle two, so that
   * no contender is reported by a run that was luckier than its others.
   */
  static RunResult median(List<RunResult> repetitions) {
    List<RunResult> sorted =
        repetitions.stream().sorted(Comparator.comparingDouble(RunResult::rowsPerSecond)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  RunResult withRepetitions(double[] rowsPerSecond) {
    return new RunResult(
        contender,
        scenario,
        rows,
        seconds,
        rowsPerSecond(),
        cpuSeconds,
        rowsPerSecondPerCore,
        parquetBytes,
        parquetMbPerSecond,
        files,
        commits,
        commitLatencyP50Ms,
        commitLatencyP99Ms,
        commitLatencyMaxMs,
        commitsAfterWarmUp,
        commitLatencyP99AfterWarmUpMs,
        peakHeapBytes,
        maxHeapBytes,
        codec,
        parallelism,
        checkpointIntervalMs,
        rowGroupBytes,
        objectReuse,
        availableCores,
        javaVersion,
        rowsPerSecond.clone());
  }
}
