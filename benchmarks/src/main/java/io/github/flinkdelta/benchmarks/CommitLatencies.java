/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/** Commit latencies from checkpoint completions and commit-visibility moments. */
final class CommitLatencies {

  private CommitLatencies() {}

  /**
   * One latency per checkpoint that committed something: from its completion to the last commit
   * event seen before the next checkpoint completed. (A sink that makes one checkpoint visible in
   * several steps, like FileSink renaming file by file, is visible when its last step is.)
   */
  static List<Long> of(List<Long> completions, List<Long> commitTimes) {
    return of(completions, commitTimes, Long.MIN_VALUE);
  }

  /** As {@link #of(List, List)}, for the checkpoints completed at or after {@code fromMillis}. */
  static List<Long> of(List<Long> completions, List<Long> commitTimes, long fromMillis) {
    TreeSet<Long> completed = new TreeSet<>(completions);
    TreeMap<Long, Long> lastSeenByCheckpoint = new TreeMap<>();
    for (long seen : commitTimes) {
      Long checkpoint = completed.floor(seen);
      if (checkpoint != null) {
        lastSeenByCheckpoint.merge(checkpoint, seen, Math::max);
      }
    }
    List<Long> latencies = new ArrayList<>();
    lastSeenByCheckpoint
        .tailMap(fromMillis)
        .forEach((checkpoint, seen) -> latencies.add(seen - checkpoint));
    latencies.sort(null);
    return latencies;
  }

  /**
   * One latency per commit whose checkpoint is known: from the completion of the checkpoint the
   * commit carries (for this sink the transaction version, for Iceberg the snapshot's {@code
   * flink.max-committed-checkpoint-id}) to the commit's visibility, however many checkpoints
   * completed in between. Commits of checkpoints completed before {@code fromMillis}, and those of
   * no completed checkpoint (a bounded job's final commit), are left out.
   *
   * @param completedAt each completed checkpoint's id and completion moment
   * @param checkpointOfVersion the checkpoint id of each table version
   */
  static List<Long> ofOwnCheckpoints(
      java.util.Map<Long, Long> completedAt,
      List<CommitObserver.Visible> commits,
      java.util.Map<Long, Long> checkpointOfVersion,
      long fromMillis) {
    List<Long> latencies = new ArrayList<>();
    for (CommitObserver.Visible commit : commits) {
      Long checkpoint = checkpointOfVersion.get(commit.version());
      Long completed = checkpoint == null ? null : completedAt.get(checkpoint);
      if (completed != null && completed >= fromMillis) {
        latencies.add(commit.atMillis() - completed);
      }
    }
    latencies.sort(null);
    return latencies;
  }

  /** Nearest-rank percentile; {@code NaN} when there are no values. */
  static double percentile(List<Long> sorted, int percent) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
