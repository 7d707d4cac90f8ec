/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import org.apache.flink.annotation.Internal;

/**
 * When a long-lived table handle reloads its snapshot from storage or the catalog.
 *
 * <p>The snapshot a commit leaves is the one it was built on plus that commit: it keeps the log
 * segment the table was loaded with and lists every commit since. Kernel replays those commits for
 * each transaction's domain metadata and for every Delta checkpoint, so without a reload both would
 * grow in time and memory for as long as a job streams. A reload is due once a Delta checkpoint
 * newer than the last reload exists (it starts a short log segment), or after {@link
 * #MAX_COMMITS_BETWEEN_RELOADS} commits in any case (another writer may checkpoint the table).
 */
@Internal
public final class ReloadPolicy {

  static final int MAX_COMMITS_BETWEEN_RELOADS = 100;

  private long reloadedAtCheckpoint = -1;
  private int commitsSinceLoad;

  /** A commit left a snapshot built on the previous one. */
  void committed() {
    commitsSinceLoad++;
  }

  /** The snapshot was loaded afresh. */
  void loaded() {
    commitsSinceLoad = 0;
  }

  /**
   * @param checkpointVersion the version of the latest Delta checkpoint this process wrote, or -1
   */
  boolean isDue(long checkpointVersion) {
    return checkpointVersion > reloadedAtCheckpoint
        || commitsSinceLoad >= MAX_COMMITS_BETWEEN_RELOADS;
  }

  /** A reload happened because a checkpoint of {@code checkpointVersion} was due. */
  void reloadedFor(long checkpointVersion) {
    loaded();
    reloadedAtCheckpoint = Math.max(reloadedAtCheckpoint, checkpointVersion);
  }
}
