/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * Commits each table's part of a completed checkpoint as one version of that table, tables in
 * parallel ({@link DynamicSinkOptions#COMMIT_PARALLELISM} at a time). Each table goes through the
 * single-table sink's committer ({@link TableCommit}), so every guarantee it gives holds per table:
 * transaction (app id, checkpoint id), replays skipped, lost responses settled.
 *
 * <p>When a table's commit fails, the others of the checkpoint still commit, and then the task
 * fails naming every table that failed; Flink retries the checkpoint's commits after the restore,
 * and the tables that committed skip theirs by the transaction id. Tables are kept open, least
 * recently used closed first beyond {@link DynamicSinkOptions#MAX_CACHED_TABLES}.
 */
final class DynamicCommitter implements Committer<DynamicCommittable> {

  private final DynamicSinkConfig config;
  private final OptionalLong restoredCheckpointId;
  private final int parallelism;
  private final int maxTables;
  private final Map<String, TableCommit> tables = new LinkedHashMap<>(16, 0.75f, true);
  private final DynamicCommitterMetrics metrics;
  private final TableDrops drops;

  /** Tables checked against the restored checkpoint in this run, open or closed since. */
  private final Set<String> checked = new HashSet<>();

  private ExecutorService executor;
  private ExecutorService background;

  DynamicCommitter(
      DynamicSinkConfig config,
      OptionalLong restoredCheckpointId,
      DynamicCommitterMetrics metrics) {
    this.config = config;
    this.restoredCheckpointId = restoredCheckpointId;
    this.metrics = metrics;
    this.drops = new TableDrops(config);
    this.parallelism = config.sinkOptions().get(DynamicSinkOptions.COMMIT_PARALLELISM);
    this.maxTables = config.sinkOptions().get(DynamicSinkOptions.MAX_CACHED_TABLES);
  }

  @Override
  public void commit(Collection<CommitRequest<DynamicCommittable>> requests)
      throws IOException, InterruptedException {
    Map<String, List<TableCommitRequest>> byTable = new LinkedHashMap<>();
    for (CommitRequest<DynamicCommittable> request : requests) {
      byTable
          .computeIfAbsent(request.getCommittable().table(), table -> new ArrayList<>())
          .add(new TableCommitRequest(request));
    }
    if (byTable.isEmpty()) {
      return;
    }
    long started = System.nanoTime();
    List<CompletableFuture<Void>> commits = new ArrayList<>();
    List<TableCommit> committing = new ArrayList<>();
    for (Map.Entry<String, List<TableCommitRequest>> entry : byTable.entrySet()) {
      TableCommit table = tables.computeIfAbsent(entry.getKey(), this::newTableCommit);
      committing.add(table);
      List<TableCommitRequest> tableRequests = entry.getValue();
      if (byTable.size() == 1) {
        commits.add(run(() -> table.commit(tableRequests)));
      } else {
        commits.add(CompletableFuture.runAsync(() -> table.commit(tableRequests), executor()));
      }
    }
    List<String> failed = new ArrayList<>();
    RuntimeException failure = null;
    for (int i = 0; i < commits.size(); i++) {
      try {
        commits.get(i).join();
      } catch (CompletionException e) {
        failed.add(committing.get(i).name());
        RuntimeException cause =
            e.getCause() instanceof RuntimeException runtime
                ? runtime
                : new IllegalStateException(e.getCause());
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      }
    }
    metrics.committed(byTable.size() - failed.size(), (System.nanoTime() - started) / 1_000_000);
    closeLeastRecentlyUsed();
    if (failure != null) {
      String message =
          "Dynamic Delta sink could not commit "
              + failed.size()
              + " of "
              + byTable.size()
              + " tables of the checkpoint: "
              + failed
              + "; the other tables committed. First failure: "
              + failure.getMessage();
      IllegalStateException thrown = new IllegalStateException(message, failure);
      if (failure instanceof SuppressRestartsException) {
        throw new SuppressRestartsException(thrown);
      }
      throw thrown;
    }
  }

  private static CompletableFuture<Void> run(Runnable commit) {
    try {
      commit.run();
      return CompletableFuture.completedFuture(null);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private TableCommit newTableCommit(String name) {
    if (background == null) {
      // The tables' Delta checkpoints and compactions, one at a time: threads stay bounded.
      ClassLoader loader = DynamicCommitter.class.getClassLoader();
      background =
          Executors.newSingleThreadExecutor(
              task -> {
                Thread thread = new Thread(task, "delta-dynamic-maintenance");
                thread.setDaemon(true);
                thread.setContextClassLoader(loader);
                return thread;
              });
    }
    return new TableCommit(
        name, config, drops, restoredCheckpointId, checked.add(name), background);
  }

  private ExecutorService executor() {
    if (executor == null) {
      AtomicInteger threads = new AtomicInteger();
      executor =
          Executors.newFixedThreadPool(
              parallelism,
              task -> {
                Thread thread =
                    new Thread(task, "delta-dynamic-commit-" + threads.incrementAndGet());
                thread.setDaemon(true);
                return thread;
              });
    }
    return executor;
  }

  private void closeLeastRecentlyUsed() {
    Iterator<TableCommit> it = tables.values().iterator();
    while (tables.size() > maxTables) {
      it.next().close();
      it.remove();
    }
    metrics.openTables(tables.size());
  }

  @Override
  public void close() {
    try {
      tables.values().forEach(TableCommit::close);
      tables.clear();
    } finally {
      if (executor != null) {
        executor.shutdownNow();
      }
      if (background != null) {
        // A checkpoint or compaction in flight finishes for a moment; closed tables' releases run.
        BackgroundThreads.stopShared(background);
      }
    }
  }

  /** A request of the dynamic committer, as the single-table committer takes it. */
  record TableCommitRequest(CommitRequest<DynamicCommittable> request)
      implements CommitRequest<DeltaCommittable> {

    /** Whether the table is truncated once the request's version is committed. */
    boolean truncates() {
      return request.getCommittable().truncates();
    }

    /** The id of the table dropped once the request's version is committed; null when none. */
    String dropsTableId() {
      return request.getCommittable().dropsTableId();
    }

    @Override
    public DeltaCommittable getCommittable() {
      return request.getCommittable().committable();
    }

    @Override
    public int getNumberOfRetries() {
      return request.getNumberOfRetries();
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
      request.signalFailedWithKnownReason(t);
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
      request.signalFailedWithUnknownReason(t);
    }

    @Override
    public void retryLater() {
      request.retryLater();
    }

    @Override
    public void updateAndRetryLater(DeltaCommittable committable) {
      request.updateAndRetryLater(
          new DynamicCommittable(
              request.getCommittable().table(), committable, truncates(), dropsTableId()));
    }

    @Override
    public void signalAlreadyCommitted() {
      request.signalAlreadyCommitted();
    }
  }
}
