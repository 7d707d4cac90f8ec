/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
