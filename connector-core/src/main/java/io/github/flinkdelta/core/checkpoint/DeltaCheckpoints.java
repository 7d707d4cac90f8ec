/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import io.delta.kernel.Snapshot;
import io.delta.kernel.exceptions.CheckpointAlreadyExistsException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a Delta checkpoint of every version that is a multiple of the interval, so that loading
 * the table's snapshot stays fast however long a job streams into it.
 *
 * <p>Off the commit path: a checkpoint is written on a thread of its own (or one that the
 * checkpoint writers of many tables share) while commits go on. At most one runs or waits at a
 * time; a version reached meanwhile is not checkpointed (the next interval is). A failed or
 * interrupted checkpoint leaves no visible file (see {@link AtomicCheckpointEngine}) and never
 * fails a commit: the table is correct without it.
 */
@Internal
public final class DeltaCheckpoints implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaCheckpoints.class);

  /** Delta's own default interval, used when the table sets none. */
  static final int DEFAULT_INTERVAL = 10;

  private static final String INTERVAL_PROPERTY = "delta.checkpointInterval";

  private final String table;
  private final AtomicCheckpointEngine engine;
  private final Integer configuredInterval;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile boolean closing;
  private final AtomicLong latest = new AtomicLong(-1);

  /**
   * A writer of a table's Delta checkpoints, through {@code tableConf} (the table's storage).
   *
   * @param table the table, as log lines name it
   * @param interval versions between checkpoints; null follows the table's {@code
   *     delta.checkpointInterval}, 0 writes none
   */
  public static DeltaCheckpoints of(String table, Configuration tableConf, Integer interval) {
    return of(table, tableConf, interval, null);
  }

  /**
   * As {@link #of(String, Configuration, Integer)}, writing on {@code shared}, a thread the writers
   * of many tables share; null for a thread of this writer's own.
   */
  public static DeltaCheckpoints of(
      String table, Configuration tableConf, Integer interval, ExecutorService shared) {
    return new DeltaCheckpoints(table, AtomicCheckpointEngine.on(tableConf), interval, shared);
  }

  DeltaCheckpoints(String table, AtomicCheckpointEngine engine, Integer interval) {
    this(table, engine, interval, null);
  }

  private DeltaCheckpoints(
      String table, AtomicCheckpointEngine engine, Integer interval, ExecutorService shared) {
    this.table = table;
    this.engine = engine;
    this.configuredInterval = interval;
    this.ownsExecutor = shared == null;
    ClassLoader loader = DeltaCheckpoints.class.getClassLoader();
    this.executor =
        shared != null
            ? shared
            : Executors.newSingleThreadExecutor(
                task -> {
                  Thread thread = new Thread(task, "delta-checkpoint-" + table);
                  thread.setDaemon(true);
                  // Not the task's user-code class loader, which is closed when the job ends.
                  thread.setContextClassLoader(loader);
                  return thread;
                });
  }

  /** Called with the snapshot a commit produced; returns at once. */
  public void committed(Snapshot snapshot) {
    long version = snapshot.getVersion();
    int interval = interval(snapshot);
    if (interval <= 0 || version == 0 || version % interval != 0) {
      return;
    }
    if (!running.compareAndSet(false, true)) {
      LOG.info(
          "Delta checkpoint of {} still running or waiting; version {} is not checkpointed",
          table,
          version);
      return;
    }
    executor.execute(() -> write(snapshot));
  }

  /** The version of the last checkpoint this instance wrote, or -1. */
  public long latestCheckpointVersion() {
    return latest.get();
  }

  private void write(Snapshot snapshot) {
    if (closing) {
      // Queued on a shared thread before this writer closed.
      running.set(false);
      return;
    }
    long started = System.nanoTime();
    try {
      snapshot.writeCheckpoint(engine.forCheckpointOf(snapshot));
      // Before the committer learns of the checkpoint and reloads from it: the reloaded snapshot
      // then holds the checksum, and the versions after it get theirs.
      VersionChecksums.computeIfNoneInReach(engine, snapshot);
      latest.set(snapshot.getVersion());
      LOG.info(
          "Wrote Delta checkpoint of {} at version {} in {} ms",
          table,
          snapshot.getVersion(),
          (System.nanoTime() - started) / 1_000_000);
    } catch (CheckpointAlreadyExistsException e) {
      LOG.debug(
          "Delta checkpoint of {} at version {} exists already", table, snapshot.getVersion());
    } catch (Exception e) {
      // Hadoop turns an interrupt into an InterruptedIOException and clears the flag.
      if (closing) {
        LOG.info("Delta checkpoint of {} at version {} cancelled", table, snapshot.getVersion());
      } else {
        LOG.warn(
            "Could not write the Delta checkpoint of {} at version {}; the table is unaffected and"
                + " a later version is checkpointed instead",
            table,
            snapshot.getVersion(),
            e);
      }
    } finally {
      running.set(false);
    }
  }

  private int interval(Snapshot snapshot) {
    if (configuredInterval != null) {
      return configuredInterval;
    }
    String property = snapshot.getTableProperties().get(INTERVAL_PROPERTY);
    try {
      return property == null ? DEFAULT_INTERVAL : Integer.parseInt(property.trim());
    } catch (NumberFormatException e) {
      return DEFAULT_INTERVAL;
    }
  }

  /**
   * Lets a running checkpoint finish for up to two seconds, then interrupts it (an interrupted
   * checkpoint leaves no visible file). On a shared thread, a running checkpoint finishes there.
   */
  @Override
  public void close() {
    closing = true;
    if (!ownsExecutor) {
      return;
    }
    executor.shutdown();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        executor.shutdownNow();
        executor.awaitTermination(1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
