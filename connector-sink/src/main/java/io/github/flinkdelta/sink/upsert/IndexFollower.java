/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, on a thread of an upsert writer subtask, what the table's versions since the key index's
 * version did to the rows of the subtask's keys ({@link KeyChanges}), so that the writer applies
 * them to its index at its next checkpoint barrier ({@link
 * io.github.flinkdelta.core.upsert.IndexCatchUp}). The writer asks after every checkpoint; a read
 * runs only when none is running or waiting to be taken.
 *
 * <p>Failure semantics: a read that fails leaves the index where it was, and the next request tries
 * again; commits stay exact meanwhile, as the committer settles each checkpoint's keys against the
 * rows other writers added since the index version. Only after {@link #MAX_FAILURES} failures in a
 * row does the writer fail, so that a lasting problem shows.
 */
final class IndexFollower implements AutoCloseable {

  /** It logs as the writer it serves. */
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  static final int MAX_FAILURES = 20;

  private final DeltaSinkConfig config;
  private final int subtask;
  private final IndexKeys keys;
  private final String appId;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final long minIntervalNanos;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicReference<KeyChanges> ready = new AtomicReference<>();
  private final AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();
  private volatile int failures;
  private volatile boolean closing;
  private volatile DeltaTable table;

  /** When the last read was started; reads start no more often than the minimum interval. */
  private long lastStarted;

  private boolean started;

  /**
   * @param appId the sink's app id, whose versions hold rows the index has already; null when
   *     unknown
   */
  IndexFollower(DeltaSinkConfig config, int subtask, IndexKeys keys, String appId) {
    this(config, subtask, keys, appId, ownThread(config, subtask), true, Duration.ZERO);
  }

  /**
   * @param appId the sink's app id, whose versions hold rows the index has already; null when
   *     unknown
   * @param executor where reads run
   * @param ownsExecutor whether closing the follower stops {@code executor}
   * @param minInterval the least time between the starts of two reads: each loads the table's
   *     latest snapshot, which a subtask writing many tables cannot afford at every checkpoint
   */
  IndexFollower(
      DeltaSinkConfig config,
      int subtask,
      IndexKeys keys,
      String appId,
      ExecutorService executor,
      boolean ownsExecutor,
      Duration minInterval) {
    this.config = config;
    this.minIntervalNanos = minInterval.toNanos();
    this.subtask = subtask;
    this.keys = keys;
    this.appId = appId;
    this.executor = executor;
    this.ownsExecutor = ownsExecutor;
  }

  /** A thread for one table's reads, named for it. */
  private static ExecutorService ownThread(DeltaSinkConfig config, int subtask) {
    ClassLoader loader = IndexFollower.class.getClassLoader();
    return Executors.newSingleThreadExecutor(
        task -> {
          Thread thread =
              new Thread(task, "delta-index-follower-" + config.tableName() + "-" + subtask);
          thread.setDaemon(true);
          thread.setContextClassLoader(loader);
          return thread;
        });
  }

  /**
   * Starts reading the changes after {@code indexVersion}, unless a read runs or waits, or the last
   * started less than the minimum interval ago.
   */
  void request(long indexVersion) {
    long now = System.nanoTime();
    if (closing
        || ready.get() != null
        || (started && now - lastStarted < minIntervalNanos)
        || !running.compareAndSet(false, true)) {
      return;
    }
    started = true;
    lastStarted = now;
    executor.execute(() -> read(indexVersion));
  }

  /**
   * The changes read, if a read has finished since the last call.
   *
   * @throws IllegalStateException when reads failed {@link #MAX_FAILURES} times in a row
   */
  Optional<KeyChanges> takeReady() {
    if (failures >= MAX_FAILURES) {
      throw new IllegalStateException(
          SinkErrors.indexNotFollowing(config.tableName(), failures), lastFailure.get());
    }
    return Optional.ofNullable(ready.getAndSet(null));
  }

  private void read(long indexVersion) {
    if (closing) {
      // Queued on a shared thread before the follower closed: its table stays closed.
      running.set(false);
      return;
    }
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      KeyChanges changes = table().keyChanges(indexVersion, config.primaryKey(), keys::owns, appId);
      failures = 0;
      if (changes.toVersion() > indexVersion) {
        long foreign = changes.versions().stream().filter(KeyChanges.Version::isForeign).count();
        if (foreign > 0) {
          LOG.info(
              "Delta upsert writer {} of {} read {} row changes of its keys in {} versions of"
                  + " other writers (versions {} to {}) in {} ms",
              subtask,
              config.tableName(),
              changes.size(),
              foreign,
              indexVersion + 1,
              changes.toVersion(),
              (System.nanoTime() - started) / 1_000_000);
        }
        ready.set(changes);
      }
    } catch (RuntimeException e) {
      if (!closing) {
        failures++;
        lastFailure.set(e);
        LOG.warn(
            "Delta upsert writer {} of {} could not read the table's versions after {} ({}"
                + " failures in a row); its commits stay exact, and the next checkpoint tries"
                + " again",
            subtask,
            config.tableName(),
            indexVersion,
            failures,
            e);
      }
    } finally {
      running.set(false);
    }
  }

  private DeltaTable table() {
    if (table == null) {
      table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()));
    }
    return table;
  }

  /**
   * Lets a running read finish for up to two seconds, then interrupts it (on a thread of its own;
   * on a shared one, the read goes on into a table that is closed under it, and its failure is
   * ignored).
   */
  @Override
  public void close() {
    closing = true;
    if (ownsExecutor) {
      BackgroundThreads.stop(executor);
    } else {
      long deadline = System.nanoTime() + 2_000_000_000L;
      while (running.get() && System.nanoTime() < deadline) {
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    if (table != null) {
      try (var loader = ConnectorClassLoader.enter()) {
        table.close();
      }
    }
  }
}
