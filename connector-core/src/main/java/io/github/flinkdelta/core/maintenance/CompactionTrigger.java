/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import io.github.flinkdelta.core.config.TableWriteOptions;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * When a sink compacts its table: after {@code commits} commits since the last run started, or at
 * the first commit {@code interval} after it.
 *
 * @param commits commits between two runs
 * @param interval time between two runs, or null for no limit
 */
@Internal
public record CompactionTrigger(int commits, Duration interval) implements Serializable {

  public CompactionTrigger {
    if (commits < 1) {
      throw new IllegalArgumentException(
          "'"
              + TableWriteOptions.COMPACTION_TRIGGER_COMMITS.key()
              + "' must be at least 1, got "
              + commits);
    }
    if (interval != null && (interval.isNegative() || interval.isZero())) {
      throw new IllegalArgumentException(
          "'"
              + TableWriteOptions.COMPACTION_TRIGGER_INTERVAL.key()
              + "' must be positive, got "
              + interval);
    }
  }

  /** The trigger {@code config} sets ({@code sink.compaction.trigger.*}). */
  public static CompactionTrigger from(ReadableConfig config) {
    return new CompactionTrigger(
        config.get(TableWriteOptions.COMPACTION_TRIGGER_COMMITS),
        config.getOptional(TableWriteOptions.COMPACTION_TRIGGER_INTERVAL).orElse(null));
  }

  /** Whether a run is due after {@code commitsSince} commits and {@code sinceNanos} nanoseconds. */
  public boolean isDue(int commitsSince, long sinceNanos) {
    return commitsSince >= commits
        || (interval != null && commitsSince > 0 && sinceNanos >= interval.toNanos());
  }
}
