/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.checkpoint.VersionChecksums;
import org.apache.flink.annotation.Internal;

/**
 * The latest snapshot of one table, held in memory: refreshed from the commits this process makes
 * (Kernel's post-commit snapshot, no log listing) and reloaded from the {@link SnapshotSource}
 * after a conflict, an unknown outcome, or when the {@link ReloadPolicy} says so.
 *
 * <p>Not thread-safe: one committer owns one instance.
 */
@Internal
public final class SnapshotCache implements AutoCloseable {

  private final Engine engine;
  private final SnapshotSource source;
  private final ReloadPolicy policy = new ReloadPolicy();
  private Snapshot snapshot;

  /** Loads the latest snapshot. */
  public SnapshotCache(Engine engine, SnapshotSource source) {
    this.engine = engine;
    this.source = source;
    this.snapshot = source.latest(engine);
  }

  public Snapshot current() {
    return snapshot;
  }

  /** Loads the latest snapshot afresh. */
  public Snapshot reload() {
    snapshot = source.latest(engine);
    policy.loaded();
    return snapshot;
  }

  /**
   * Keeps the snapshot a commit produced, once the source has done what follows a commit (a
   * catalog-managed table publishes it), then writes its version checksum ({@link
   * VersionChecksums}).
   *
   * @param committed Kernel's post-commit snapshot, or null when Kernel gave none
   * @return how long the source took after the commit (publishing), in milliseconds
   */
  long committed(Snapshot committed) {
    long started = System.nanoTime();
    snapshot = source.afterCommit(engine, committed != null ? committed : source.latest(engine));
    long afterCommitMillis = (System.nanoTime() - started) / 1_000_000;
    policy.committed();
    if (VersionChecksums.afterCommit(engine, snapshot)) {
      reload();
    }
    return afterCommitMillis;
  }

  /** See {@link ReloadPolicy}. */
  public boolean reloadIfDue(long checkpointVersion) {
    if (!policy.isDue(checkpointVersion)) {
      return false;
    }
    reload();
    policy.reloadedFor(checkpointVersion);
    return true;
  }

  /** The last transaction version the held snapshot records for {@code appId}, or -1. */
  public long transactionVersion(String appId) {
    return snapshot.getLatestTransactionVersion(engine, appId).orElse(-1L);
  }

  @Override
  public void close() {
    source.close();
  }
}
