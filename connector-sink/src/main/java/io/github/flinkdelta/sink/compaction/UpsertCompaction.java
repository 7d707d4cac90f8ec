/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.compaction;

import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.maintenance.PreparedCompaction;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.MovedRows;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In-job compaction of an upsert sink, run by each writer subtask on its own files: those its file
 * prefix names, which hold keys of its key groups only. When the {@link CompactionTrigger} says so,
 * a thread of the writer plans on the latest version and rewrites the small and delete-heavy files
 * among them, noting where each row moved ({@link MovedRows}). At the next checkpoint barrier the
 * writer takes the ready rewrite, moves its key index ({@code UpsertWriterOperator}) and hands the
 * rewrite on with the checkpoint's files and deletes, so that one commit carries both.
 *
 * <p>Why the writer and not the committer: the rows a compaction moves are rows the writer's key
 * index points at, and the index lives in the writer's keyed state. Moving the entries in the same
 * checkpoint whose commit moves the rows keeps the index exact across any failure, and no commit of
 * the stream ever races the compaction's.
 *
 * <p>Failure semantics: a run that fails, or meets a row of another subtask's key groups (in a file
 * written before a rescale; the file is left alone from then on), leaves the table as it was; its
 * files, if any, are orphans for cleanup. A rewrite handed on but never committed (the checkpoint
 * failed) leaves orphans too, and the restored index points at the old files, which are still live.
 * A rewrite whose files another writer removed first is dropped by the commit, which then rebuilds
 * the index as after any other writer's rewrite.
 */
@Internal
public final class UpsertCompaction implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(UpsertCompaction.class);

  /** A rewrite ready to hand on: its files and where each of its rows moved. */
  public record Rewrite(PreparedCompaction prepared, MovedRows moved) {}

  private final DeltaSinkConfig config;
  private final CompactionOptions options;
  private final FileWriteOptions writeOptions;
  private final CompactionTrigger trigger;
  private final LongSupplier nanoClock;
  private final String ownFilePrefix;
  private final Pattern ownFile;
  private final Predicate<String> ownKey;
  private final ExecutorService executor;
  private final boolean ownsExecutor;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicReference<Rewrite> ready = new AtomicReference<>();

  /**
   * Files not to plan: those handed on and still in the table, and those holding keys of other
   * subtasks.
   */
  private final Set<Long> excluded = ConcurrentHashMap.newKeySet();

  private final Counter runs;
  private final Counter filesCompacted;
  private final AtomicLong lastDurationMs = new AtomicLong(-1);
  private volatile boolean closing;
  private int checkpointsSinceRun;
  private long lastRunNanos;
  private DeltaTable table;

  /**
   * @param ownKey whether a key of the table belongs to this subtask's key groups: a file holding
   *     another's keys is left alone
   */
  public UpsertCompaction(
      DeltaSinkConfig config,
      int subtask,
      int parallelism,
      Predicate<String> ownKey,
      MetricGroup delta,
      LongSupplier nanoClock) {
    this(config, subtask, parallelism, ownKey, delta, nanoClock, null);
  }

  /**
   * As {@link #UpsertCompaction(DeltaSinkConfig, int, int, Predicate, MetricGroup, LongSupplier)}.
   *
   * @param shared the thread the runs go to, shared with the compactions of other tables; null for
   *     a thread of this compaction's own
   */
  public UpsertCompaction(
      DeltaSinkConfig config,
      int subtask,
      int parallelism,
      Predicate<String> ownKey,
      MetricGroup delta,
      LongSupplier nanoClock,
      ExecutorService shared) {
    this.config = config;
    CompactionOptions configured = config.compaction().options();
    // Each subtask rewrites its share of a run, and holds each moved row's key until it is ready.
    this.options =
        new CompactionOptions(
            configured.targetFileSizeBytes(),
            configured.minInputFiles(),
            Math.max(configured.targetFileSizeBytes(), configured.maxBytesPerRun() / parallelism),
            configured.deletedRowsRatio());
    this.writeOptions = config.writeOptions().withTargetFileSize(options.targetFileSizeBytes());
    this.trigger = config.compaction().trigger();
    this.nanoClock = nanoClock;
    this.lastRunNanos = nanoClock.getAsLong();
    this.ownFilePrefix = String.format("part-%05d-", subtask);
    // The names this sink's writers give their files (UpsertWriterOperator#open): another
    // engine's part-00000-<uuid>-c000 files are not theirs.
    this.ownFile =
        Pattern.compile(
            Pattern.quote(ownFilePrefix)
                + "(compacted-)?\\p{XDigit}{8}(-\\p{XDigit}{4}){3}-\\p{XDigit}{12}(-l\\d+)?-\\d{5}\\..+");
    this.ownKey = ownKey;
    ClassLoader loader = UpsertCompaction.class.getClassLoader();
    this.ownsExecutor = shared == null;
    this.executor =
        shared != null
            ? shared
            : Executors.newSingleThreadExecutor(
                task -> {
                  Thread thread =
                      new Thread(task, "delta-compaction-" + config.tableName() + "-" + subtask);
                  thread.setDaemon(true);
                  thread.setContextClassLoader(loader);
                  return thread;
                });
    this.runs = delta.counter("numCompactions");
    this.filesCompacted = delta.counter("numFilesCompacted");
    delta.gauge("lastCompactionDurationMs", lastDurationMs::get);
  }

  /**
   * Takes the rewrite that is ready, if any, for the checkpoint whose barrier the writer is at; its
   * inputs are not planned again until the table no longer lists them.
   */
  public Optional<Rewrite> takeReady() {
    Rewrite rewrite = ready.getAndSet(null);
    if (rewrite == null) {
      return Optional.empty();
    }
    excluded.addAll(rewrite.prepared().removedIds());
    runs.inc();
    filesCompacted.inc(rewrite.prepared().inputFiles());
    running.set(false);
    return Optional.of(rewrite);
  }

  /**
   * Called after each checkpoint's hand-over: starts a run when one is due and none is running.
   *
   * @param indexVersion the table version the writer's key index has taken in, which the run plans
   *     on: a row the run moves is then one the index knows where it was
   */
  public void checkpointed(long indexVersion) {
    checkpointsSinceRun++;
    long now = nanoClock.getAsLong();
    if (closing || !trigger.isDue(checkpointsSinceRun, now - lastRunNanos)) {
      return;
    }
    if (!running.compareAndSet(false, true)) {
      return;
    }
    checkpointsSinceRun = 0;
    lastRunNanos = now;
    executor.execute(() -> prepare(indexVersion));
  }

  private void prepare(long indexVersion) {
    if (closing) {
      LOG.info("Compaction of {} cancelled: the sink closed before it started", config.tableName());
      running.set(false);
      return;
    }
    long started = System.nanoTime();
    boolean handedOver = false;
    Set<Long> live = new HashSet<>();
    long[] file = {0};
    MovedRows moved = new MovedRows();
    try (var loader = ConnectorClassLoader.enter()) {
      Optional<PreparedCompaction> prepared =
          table()
              .maintenance()
              .prepareCompactionOfOwnFiles(
                  indexVersion,
                  options,
                  writeOptions,
                  path -> {
                    long id = FileIds.of(path);
                    live.add(id);
                    return ownFile.matcher(fileName(path)).matches() && !excluded.contains(id);
                  },
                  ownFilePrefix + "compacted",
                  config.primaryKey(),
                  (key, fromFile, fromPosition, to) -> {
                    if (!ownKey.test(key)) {
                      file[0] = fromFile;
                      throw new ForeignRowException();
                    }
                    moved.accept(key, fromFile, fromPosition, to);
                  });
      // Files the table no longer lists need no exclusion any more.
      excluded.retainAll(live);
      lastDurationMs.set((System.nanoTime() - started) / 1_000_000);
      if (prepared.isPresent()) {
        ready.set(new Rewrite(prepared.get(), moved));
        handedOver = true;
      }
    } catch (ForeignRowException e) {
      excluded.retainAll(live);
      excluded.add(file[0]);
      LOG.info(
          "A data file of {} holds keys of other writer subtasks (it was written before a"
              + " rescale); this subtask leaves it to the standalone compaction",
          config.tableName());
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

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private DeltaTable table() {
    if (table == null) {
      table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()));
    }
    return table;
  }

  /**
   * Lets a running compaction finish for up to two seconds, then interrupts it. On a shared thread,
   * a run of this table in flight finishes and is discarded there, after which the table is closed.
   */
  @Override
  public void close() {
    closing = true;
    BackgroundThreads.release(executor, ownsExecutor, this::release);
  }

  private void release() {
    try (var loader = ConnectorClassLoader.enter()) {
      Rewrite pending = ready.getAndSet(null);
      if (pending != null && table != null) {
        LOG.info(
            "Compaction of {} cancelled: the sink closed before its commit; its files are deleted",
            config.tableName());
        table.maintenance().discardCompaction(pending.prepared());
      }
      if (table != null) {
        table.close();
      }
    }
  }

  /** Stops a rewrite that met a row this subtask's index does not own. */
  private static final class ForeignRowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ForeignRowException() {
      super(null, null, false, false);
    }
  }
}
