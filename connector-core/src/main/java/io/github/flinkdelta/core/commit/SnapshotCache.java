/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.checkpoint.VersionChecksums;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.annotation.Internal;

/**
 * The latest snapshot of one table, held in memory: refreshed from the commits this process makes
 * (Kernel's post-commit snapshot, no log listing) and reloaded from the {@link SnapshotSource}
 * after a conflict, an unknown outcome, or when the {@link ReloadPolicy} says so.
 *
 * <p>It also knows the transaction versions this process's own commits recorded, for as long as the
 * held snapshot is the one they left (or a reload found the table at that same version): the last
 * version of an app id is then known without reading the log ({@link #ownTransactionVersion}).
 *
 * <p>Not thread-safe: one committer owns one instance.
 */
@Internal
public final class SnapshotCache implements AutoCloseable {

  private final Engine engine;
  private final SnapshotSource source;
  private final ReloadPolicy policy = new ReloadPolicy();
  private Snapshot snapshot;

  /** App id to the transaction version this process committed last, as of {@link #ownAt}. */
  private final Map<String, Long> ownTransactions = new HashMap<>();

  /** The table version {@link #ownTransactions} holds for, or -1. */
  private long ownAt = -1;

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
    if (snapshot.getVersion() != ownAt) {
      forgetOwnTransactions();
    }
    return snapshot;
  }

  /**
   * Keeps the snapshot a commit without a transaction id produced; see {@link #committed(Snapshot,
   * long, String, long)}.
   */
  long committed(Snapshot committed, long version) {
    return committed(committed, version, null, -1);
  }

  /**
   * Keeps the snapshot a commit produced, once the source has done what follows a commit (a
   * catalog-managed table publishes it), then writes its version checksum ({@link
   * VersionChecksums}).
   *
   * @param committed Kernel's post-commit snapshot, or null when Kernel gave none
   * @param version the version the commit landed at
   * @param appId the app id of the commit's transaction, or null when it has none
   * @param txnVersion the version of the commit's transaction
   * @return how long the source took after the commit (publishing), in milliseconds
   */
  long committed(Snapshot committed, long version, String appId, long txnVersion) {
    long readVersion = snapshot.getVersion();
    long started = System.nanoTime();
    snapshot = source.afterCommit(engine, committed != null ? committed : source.latest(engine));
    long afterCommitMillis = (System.nanoTime() - started) / 1_000_000;
    policy.committed();
    if (snapshot.getVersion() != version) {
      forgetOwnTransactions();
    } else {
      // The apps' last transactions stay known when no other writer's commit came in between; the
      // newest commit's own transaction is its app's last in any case.
      if (ownAt != readVersion || version != readVersion + 1) {
        ownTransactions.clear();
      }
      if (appId != null) {
        ownTransactions.put(appId, txnVersion);
      }
      ownAt = version;
    }
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

  /**
   * The last transaction version of {@code appId} in the held snapshot, when this process's own
   * commit recorded it and no other writer has committed since; empty when only the log can tell
   * ({@link #transactionVersion}).
   */
  OptionalLong ownTransactionVersion(String appId) {
    Long version = ownAt == snapshot.getVersion() ? ownTransactions.get(appId) : null;
    return version == null ? OptionalLong.empty() : OptionalLong.of(version);
  }

  /** Makes every app's last transaction version known only from the log, until the next commit. */
  void forgetOwnTransactions() {
    ownTransactions.clear();
    ownAt = -1;
  }

  @Override
  public void close() {
    source.close();
  }
}
