/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One table's history as its log or metadata records it once the job is done: when the table came
 * to exist and when each checkpoint's commit became visible in it. A moment is the modification
 * time of the file that made the table or the commit visible (a Delta commit file, an Iceberg
 * metadata file), which both sinks write just before they create or rename it into place; the file
 * system's clock is coarse (a few milliseconds).
 *
 * @param table the table's index
 * @param createdAtMillis when the table came to exist (its first version, with no rows yet)
 * @param visibleAtByCheckpoint for each checkpoint id that committed rows to the table, when that
 *     commit became visible
 */
record TableCommits(int table, long createdAtMillis, Map<Long, Long> visibleAtByCheckpoint) {

  TableCommits {
    visibleAtByCheckpoint = Map.copyOf(visibleAtByCheckpoint);
  }

  /** When the table's first rows became visible; {@link Long#MAX_VALUE} when none did. */
  long firstRowsAtMillis() {
    return visibleAtByCheckpoint.values().stream()
        .mapToLong(Long::longValue)
        .min()
        .orElse(Long.MAX_VALUE);
  }

  /**
   * For each checkpoint, the moment its commit was visible in every table it wrote: the last of its
   * tables' commits.
   */
  static Map<Long, Long> visibleEverywhere(List<TableCommits> tables) {
    Map<Long, Long> last = new HashMap<>();
    for (TableCommits table : tables) {
      table.visibleAtByCheckpoint.forEach(
          (checkpoint, at) -> last.merge(checkpoint, at, Math::max));
    }
    return last;
  }

  /**
   * For each of {@code checkpoints}, the moment its rows were visible in every table, when a table
   * may commit them with a later checkpoint's: the last, over the tables that committed it or a
   * later one, of each one's first such commit. A table that had no rows in a checkpoint counts
   * with its next commit, so the moment is never early.
   */
  static Map<Long, Long> visibleEverywhereFrom(
      List<TableCommits> tables, Collection<Long> checkpoints) {
    Map<Long, Long> last = new HashMap<>();
    for (TableCommits table : tables) {
      TreeMap<Long, Long> commits = new TreeMap<>(table.visibleAtByCheckpoint);
      for (long checkpoint : checkpoints) {
        Map.Entry<Long, Long> first = commits.ceilingEntry(checkpoint);
        if (first != null) {
          last.merge(checkpoint, first.getValue(), Math::max);
        }
      }
    }
    return last;
  }

  /** The modification time of {@code file} in epoch milliseconds. */
  static long modifiedMillis(Path file) throws IOException {
    return Files.getLastModifiedTime(file).toMillis();
  }
}
