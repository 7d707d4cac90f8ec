/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The figures of one contender on one scenario, as written to {@code benchmark-results.json}.
 *
 * @param rowsMissing generated rows the contender's table does not hold when the job is done (by
 *     its log, snapshot or finished files, not by what lies on disk); a run of this sink fails
 *     instead, a peer's is reported
 * @param rowsDuplicated generated rows the table holds more than once
 * @param rowsPerSecond rows over the time from the job's submission to its end, start-up and the
 *     JVM's warm-up included
 * @param rowsPerSecondPerCore rows per second of CPU time the whole process used (job, observer and
 *     embedded catalog included)
 * @param rowsAfterWarmUp rows generated after the first {@link ContenderRun#WARM_UP_MILLIS} of the
 *     job, over which {@code rowsPerSecondAfterWarmUp} and its per-core figure are measured (see
 *     {@link ThroughputAfterWarmUp}); none when the job ended sooner
 * @param cpuPerRowAfterWarmUp CPU nanoseconds per row in the window after warm-up, by the kind of
 *     thread that spent them (see {@link ThreadCpu})
 * @param commitLatencyP50Ms from a checkpoint's completion (its last acknowledgement) to the moment
 *     its commit was visible, over every checkpoint that committed data
 * @param commitLatencyP99AfterWarmUpMs the same over the checkpoints completed after the first
 *     {@link ContenderRun#WARM_UP_MILLIS} of the job, when the JIT compilers no longer compete with
 *     the sink for the cores
 * @param peakHeapBytes the largest heap in use right after a garbage collection
 * @param rowsPerSecondOfRepetitions rows/s of every repetition, in order; the other figures are
 *     those of the {@link #median} repetition
 * @param rowsPerSecondAfterWarmUpOfRepetitions the same after warm-up
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunResult(
    String contender,
    String scenario,
    long rows,
    long rowsMissing,
    long rowsDuplicated,
    double seconds,
    double rowsPerSecond,
    double cpuSeconds,
    double rowsPerSecondPerCore,
    long rowsAfterWarmUp,
    ThreadCpu.PerRow cpuPerRowAfterWarmUp,
    double rowsPerSecondAfterWarmUp,
    double rowsPerSecondPerCoreAfterWarmUp,
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
    double[] rowsPerSecondOfRepetitions,
    double[] rowsPerSecondAfterWarmUpOfRepetitions) {

  /**
   * The repetition of median throughput after warm-up (of whole-job throughput when a repetition
   * ended before its warm-up did), with every repetition's throughput; of an even number, the
   * slower of the middle two, so that no contender is reported by a run that was luckier than its
   * others.
   */
  static RunResult median(List<RunResult> repetitions) {
    ToDoubleFunction<RunResult> throughput =
        repetitions.stream().anyMatch(r -> Double.isNaN(r.rowsPerSecondAfterWarmUp()))
            ? RunResult::rowsPerSecond
            : RunResult::rowsPerSecondAfterWarmUp;
    List<RunResult> sorted =
        repetitions.stream().sorted(Comparator.comparingDouble(throughput)).toList();
    return sorted
        .get((sorted.size() - 1) / 2)
        .withRepetitions(
            repetitions.stream().mapToDouble(RunResult::rowsPerSecond).toArray(),
            repetitions.stream().mapToDouble(RunResult::rowsPerSecondAfterWarmUp).toArray());
  }

  private RunResult withRepetitions(double[] everyRowsPerSecond, double[] everyAfterWarmUp) {
    return new RunResult(
        contender,
        scenario,
        rows,
        rowsMissing,
        rowsDuplicated,
        seconds,
        rowsPerSecond,
        cpuSeconds,
        rowsPerSecondPerCore,
        rowsAfterWarmUp,
        cpuPerRowAfterWarmUp,
        rowsPerSecondAfterWarmUp,
        rowsPerSecondPerCoreAfterWarmUp,
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
        everyRowsPerSecond.clone(),
        everyAfterWarmUp.clone());
  }
}
