/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.compaction;

import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionResult;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.maintenance.PreparedCompaction;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's in-job compaction: the committer reports each commit, and when the {@link
 * CompactionTrigger} says so, a compaction of the table runs on a thread of its own (or one the
 * compactions of many tables share), with a table handle of its own. The committer never waits for
 * it: a commit only counts, and starts a run when none is running.
 *
 * <p>Failure semantics: a run that meets a commit changing a file it rewrites yields to it and
 * plans again ({@link io.github.flinkdelta.core.maintenance.TableMaintenance#compact}); a run that
 * fails leaves the table as it was (its files, if any, are orphans for cleanup) and is logged, and
 * the next trigger tries again. Closing the sink interrupts a running compaction on a thread of its
 * own; on a shared one, the run finishes and its files are deleted.
 */
@Internal
public final class BackgroundCompaction implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundCompaction.class);

  private final DeltaSinkConfig config;
  private final CompactionOptions options;
  private final FileWriteOptions writeOptions;
  private final CompactionTrigger trigger;
  private final LongSupplier nanoClock;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicReference<PreparedCompaction> ready = new AtomicReference<>();
  private final Counter runs;
  private final Counter filesCompacted;
  private final AtomicLong lastDurationMs = new AtomicLong(-1);
  private volatile boolean closing;
  private int commitsSinceRun;
  private long lastRunNanos;
  private DeltaTable table;

  public BackgroundCompaction(DeltaSinkConfig config, MetricGroup delta, LongSupplier nanoClock) {
    this(config, delta, nanoClock, null);
  }

  /**
   * As {@link #BackgroundCompaction(DeltaSinkConfig, MetricGroup, LongSupplier)}.
   *
   * @param shared the thread the runs go to, shared with the compactions of other tables; null for
   *     a thread of this compaction's own
   */
  public BackgroundCompaction(
      DeltaSinkConfig config, MetricGroup delta, LongSupplier nanoClock, ExecutorService shared) {
    this.config = config;
    this.options = config.compaction().options();
    // The sink's Parquet settings, with the compaction's target size.
    this.writeOptions = config.writeOptions().withTargetFileSize(options.targetFileSizeBytes());
    this.trigger = config.compaction().trigger();
    this.nanoClock = nanoClock;
    this.lastRunNanos = nanoClock.getAsLong();
    ClassLoader loader = BackgroundCompaction.class.getClassLoader();
    this.ownsExecutor = shared == null;
    this.executor =
        shared != null
            ? shared
            : Executors.newSingleThreadExecutor(
                task -> {
                  Thread thread = new Thread(task, "delta-compaction-" + config.tableName());
                  thread.setDaemon(true);
                  thread.setContextClassLoader(loader);
                  return thread;
                });
    this.runs = delta.counter("numCompactions");
    this.filesCompacted = delta.counter("numFilesCompacted");
    delta.gauge("lastCompactionDurationMs", lastDurationMs::get);
  }

  /**
   * Called by the committer after each commit of {@code appId} to {@code committed}, its own handle
   * of the table: commits a rewrite whose files are ready, then starts the next when due.
   */
  public void committed(DeltaTable committed, String appId) {
    PreparedCompaction prepared = ready.getAndSet(null);
    if (prepared != null) {
      commit(committed, prepared, appId + ".compaction");
    }
    commitsSinceRun++;
    long now = nanoClock.getAsLong();
    if (closing || !trigger.isDue(commitsSinceRun, now - lastRunNanos)) {
      return;
    }
    if (!running.compareAndSet(false, true)) {
      return;
    }
    commitsSinceRun = 0;
    lastRunNanos = now;
    executor.execute(this::prepare);
  }

  private void commit(DeltaTable committed, PreparedCompaction prepared, String appId) {
    try {
      CompactionResult result = committed.maintenance().commitCompaction(prepared, appId);
      if (result.committed()) {
        runs.inc();
        filesCompacted.inc(result.filesRemoved());
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "The compaction commit of {} failed; the table is as it was, and the next trigger tries"
              + " again",
          config.tableName(),
          e);
    } finally {
      running.set(false);
    }
  }

  private void prepare() {
    if (closing) {
      LOG.info("Compaction of {} cancelled: the sink closed before it started", config.tableName());
      running.set(false);
      return;
    }
    long started = System.nanoTime();
    boolean handedOver = false;
    try (var loader = ConnectorClassLoader.enter()) {
      Optional<PreparedCompaction> prepared =
          table().maintenance().prepareCompaction(options, writeOptions);
      lastDurationMs.set((System.nanoTime() - started) / 1_000_000);
      if (prepared.isPresent()) {
        ready.set(prepared.get());
        handedOver = true;
      }
    } catch (Exception e) {
      if (closing) {
        LOG.info("Compaction of {} cancelled: the sink is closing", config.tableName());
      } else {
        LOG.warn(
            "Compaction of {} failed; the table is as it was, and the next trigger tries again",
            config.tableName(),
            e);
      }
    } finally {
      if (!handedOver) {
        running.set(false);
      }
    }
  }

  private DeltaTable table() {
    if (table == null) {
      table =
          DeltaTable.open(
              TableRequest.of(config.table(), config.hadoopConf())
                  .withMaxCommitRetries(config.maxCommitRetries()));
    }
    return table;
  }

  /**
   * Lets a running compaction finish for up to two seconds, then interrupts it. On a shared thread,
   * a run in flight finishes there and is discarded, after which the table is closed.
   */
  @Override
  public void close() {
    closing = true;
    BackgroundThreads.release(executor, ownsExecutor, this::release);
  }

  private void release() {
    try (var loader = ConnectorClassLoader.enter()) {
      PreparedCompaction pending = ready.getAndSet(null);
      if (pending != null && table != null) {
        LOG.info(
            "Compaction of {} cancelled: the sink closed before its commit; its files are deleted",
            config.tableName());
        table.maintenance().discardCompaction(pending);
      }
      if (table != null) {
        table.close();
      }
    }
  }
}
