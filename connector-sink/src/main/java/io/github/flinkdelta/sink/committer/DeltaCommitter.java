/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.commit.CommitOutcome.AlreadyCommitted;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Conflicted;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.commit.RewrittenFileException;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.sink.compaction.BackgroundCompaction;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each checkpoint's files as one Delta version under transaction (app id, checkpoint id),
 * once the checkpoint is complete, and has a Delta checkpoint written every few versions ({@link
 * DeltaCheckpoints}, off the commit path).
 *
 * <p>Failure semantics: a committable restored from state whose transaction the table already holds
 * is skipped ({@code signalAlreadyCommitted}). A table that already holds a checkpoint this job
 * just took means another job commits under the same app id; the job stops without restarts rather
 * than skip rows. A commit that conflicts or fails fails the task, and Flink retries it after
 * restoring the checkpoint, so files are never dropped; a lost commit response is settled by the
 * table's transaction id before any retry ({@link DeltaTable#commit}). A restored state older than
 * the table is refused by {@link DeltaWriteResultAggregator} when the job starts, unless a new app
 * id is configured.
 */
@Internal
public final class DeltaCommitter implements Committer<DeltaCommittable> {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaCommitter.class);

  private final DeltaSinkConfig config;
  private final OptionalLong restoredCheckpointId;
  private final DeltaCommitterMetrics metrics;
  private final ExecutorService background;
  private DeltaTable table;
  private DeltaCheckpoints checkpoints;
  private BackgroundCompaction compaction;

  /**
   * @param receivesCommittables whether this subtask is the one the aggregator sends every
   *     committable to: it loads the table now, so that the first commit after a (re)start does not
   *     wait for the snapshot
   */
  public DeltaCommitter(
      DeltaSinkConfig config,
      OptionalLong restoredCheckpointId,
      DeltaCommitterMetrics metrics,
      boolean receivesCommittables) {
    this(config, restoredCheckpointId, metrics, receivesCommittables, null);
  }

  /**
   * As {@link #DeltaCommitter(DeltaSinkConfig, OptionalLong, DeltaCommitterMetrics, boolean)}.
   *
   * @param background the thread the table's Delta checkpoints and compactions run on, shared with
   *     the committers of other tables; null for threads of the table's own
   */
  public DeltaCommitter(
      DeltaSinkConfig config,
      OptionalLong restoredCheckpointId,
      DeltaCommitterMetrics metrics,
      boolean receivesCommittables,
      ExecutorService background) {
    this.config = config;
    this.restoredCheckpointId = restoredCheckpointId;
    this.metrics = metrics;
    this.background = background;
    if (receivesCommittables) {
      try (var loader = ConnectorClassLoader.enter()) {
        table();
      }
    }
  }

  @Override
  public void commit(Collection<CommitRequest<DeltaCommittable>> requests) {
    List<CommitRequest<DeltaCommittable>> ordered = new ArrayList<>(requests);
    ordered.sort(Comparator.comparingLong(r -> r.getCommittable().checkpointId()));
    try (var loader = ConnectorClassLoader.enter()) {
      for (CommitRequest<DeltaCommittable> request : ordered) {
        commit(request);
      }
    }
  }

  private void commit(CommitRequest<DeltaCommittable> request) {
    DeltaCommittable committable = request.getCommittable();
    if (committable.isEmpty()) {
      // The checkpoint completed without rows: the table is as current as the job.
      metrics.nothingToCommit();
      return;
    }
    checkFilesOfReplay(committable);
    long started = System.nanoTime();
    CommitOutcome outcome =
        table()
            .commit(
                committable.appId(),
                committable.checkpointId(),
                committable.files(),
                committable.deletes());
    if (outcome instanceof Committed committed) {
      committed(committable, committed, started);
      if (committed.staleRows() > 0) {
        metrics.staleDeletesSettled(committed.staleRows());
      }
    } else if (outcome instanceof AlreadyCommitted already) {
      alreadyCommitted(request, already);
    } else if (outcome instanceof Conflicted conflicted
        && conflicted.cause() instanceof RewrittenFileException rewritten) {
      // A restart would replay the same deletes into the same missing file.
      throw new SuppressRestartsException(
          new IllegalStateException(
              SinkErrors.indexOutdated(
                  config.tableName(), committable.appId(), committable.checkpointId(), rewritten),
              rewritten));
    } else if (outcome instanceof Conflicted conflicted) {
      throw new IllegalStateException(
          SinkErrors.commitConflicted(
              config.tableName(),
              committable.appId(),
              committable.checkpointId(),
              conflicted.attempts(),
              conflicted.cause()),
          conflicted.cause());
    } else {
      Failed failed = (Failed) outcome;
      throw new IllegalStateException(
          SinkErrors.commitFailed(
              config.tableName(), committable.appId(), committable.checkpointId(), failed.cause()),
          failed.cause());
    }
  }

  /**
   * A committable restored from state, or handed on long ago (checkpoints declined for a while
   * carry their files on to the next that completes), that the table does not hold yet must still
   * find its files: a vacuum spares files no version references only while they are younger than
   * the table's retention, and committing would leave versions that reference missing files. The
   * job stops instead, naming them. A fresh committable, younger than half the retention, is not
   * checked: no vacuum that keeps the table's retention can have taken its files.
   */
  private void checkFilesOfReplay(DeltaCommittable committable) {
    boolean replay =
        restoredCheckpointId.isPresent()
            && committable.checkpointId() <= restoredCheckpointId.getAsLong();
    long age = System.currentTimeMillis() - committable.createdMillis();
    boolean old = age > table().maintenance().fileRetention().toMillis() / 2;
    if ((!replay && !old)
        || table().transactionVersion(committable.appId()) >= committable.checkpointId()) {
      return;
    }
    List<String> missing = table.maintenance().missing(committable.files());
    if (!missing.isEmpty()) {
      throw new SuppressRestartsException(
          new IllegalStateException(
              SinkErrors.filesOfReplayMissing(
                  config.tableName(), committable.appId(), committable.checkpointId(), missing)));
    }
  }

  private void committed(DeltaCommittable committable, Committed outcome, long started) {
    long durationMs = (System.nanoTime() - started) / 1_000_000;
    // The checkpoint thread reads this snapshot while the next commit builds on it. In Kernel 4.4
    // a snapshot's version, protocol, metadata and committer are final fields; its lazily loaded
    // parts (log segment, CRC, domain metadata) sit in Kernel's Lazy, a single-check cache that
    // stores an Optional (whose value field is final, so it publishes the loaded value safely),
    // and their loaders only read the log through the engine passed in. Two threads can at worst
    // both load one part, never see a broken one; the checkpoint thread has an engine of its own.
    // DeltaCheckpointsTest.checkpointsOfTheSnapshotTheNextCommitBuildsOnHoldExactlyTheirVersion.
    checkpoints.committed(table.snapshot());
    long records = committable.files().numRecords();
    metrics.committed(outcome, durationMs, committable.files().size(), records);
    LOG.info(
        "Committed {} version {} (checkpoint {}, appId {}, {} files, {} rows, {} bytes, {} rows"
            + " deleted) in {} ms (publish {} ms)",
        config.tableName(),
        outcome.tableVersion(),
        committable.checkpointId(),
        committable.appId(),
        committable.files().size(),
        records,
        committable.files().sizeBytes(),
        committable.deletes().count(),
        durationMs,
        outcome.publishMillis());
    reloadIfDue();
    if (compaction != null) {
      compaction.committed(table, committable.appId());
    }
  }

  /**
   * Kernel refuses a transaction whose version the table's app id has reached. Commits of one app
   * id land in checkpoint order, so a committable restored from state is in the table already.
   * (Whether restored state is older than the table is the aggregator's decision, made once when
   * the job starts; a commit whose response was lost is settled inside {@link DeltaTable}.)
   */
  private void alreadyCommitted(CommitRequest<DeltaCommittable> request, AlreadyCommitted outcome) {
    DeltaCommittable committable = request.getCommittable();
    metrics.alreadyCommitted(outcome);
    long checkpoint = committable.checkpointId();
    boolean replay =
        restoredCheckpointId.isPresent() && checkpoint <= restoredCheckpointId.getAsLong();
    if (!replay) {
      // The table is ahead of a checkpoint this job just took: another job commits under the same
      // app id. Skipping would drop these rows.
      throw new SuppressRestartsException(
          new IllegalStateException(
              SinkErrors.appIdUsedConcurrently(
                  config.tableName(), committable.appId(), checkpoint, outcome.tableTxnVersion())));
    }
    LOG.info(
        "Checkpoint {} of appId {} is already committed to {} (the table holds its checkpoints up"
            + " to {}); skipping it",
        checkpoint,
        committable.appId(),
        config.tableName(),
        outcome.tableTxnVersion());
    request.signalAlreadyCommitted();
  }

  /**
   * Once the commit is visible: after a new Delta checkpoint, or every so many commits, the table
   * starts a fresh log segment (see {@link DeltaTable#reloadIfDue}). A failed reload costs nothing
   * but time, so the commits go on from the current snapshot and the next commit tries again.
   */
  private void reloadIfDue() {
    long started = System.nanoTime();
    try {
      if (table.reloadIfDue(checkpoints.latestCheckpointVersion())) {
        LOG.info(
            "Reloaded {} at version {} to start from its latest Delta checkpoint, in {} ms",
            config.tableName(),
            table.snapshot().getVersion(),
            (System.nanoTime() - started) / 1_000_000);
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not reload {}; commits go on from the current snapshot", config.tableName(), e);
    }
  }

  /**
   * Removes every row of the table, after checkpoint {@code checkpointId}'s own version, in a
   * version of the sink's truncation app id ({@link UpsertTables#truncateAppId}) and transaction
   * version {@code checkpointId}: a replay of the checkpoint finds it done and removes nothing.
   *
   * @throws IllegalStateException when the commit failed or kept conflicting; Flink retries the
   *     checkpoint's commits after the restore
   */
  public void truncate(String appId, long checkpointId) {
    try (var loader = ConnectorClassLoader.enter()) {
      String truncations = UpsertTables.truncateAppId(appId);
      CommitOutcome outcome = table().truncate(truncations, checkpointId);
      if (outcome instanceof Committed committed) {
        checkpoints.committed(table.snapshot());
        LOG.info(
            "Truncated {} in version {} after checkpoint {} (appId {})",
            config.tableName(),
            committed.tableVersion(),
            checkpointId,
            truncations);
      } else if (outcome instanceof AlreadyCommitted) {
        LOG.info(
            "{} is truncated after checkpoint {} already (appId {})",
            config.tableName(),
            checkpointId,
            truncations);
      } else if (outcome instanceof Conflicted conflicted) {
        throw new IllegalStateException(
            SinkErrors.commitConflicted(
                config.tableName(),
                truncations,
                checkpointId,
                conflicted.attempts(),
                conflicted.cause()),
            conflicted.cause());
      } else {
        Failed failed = (Failed) outcome;
        throw new IllegalStateException(
            SinkErrors.commitFailed(config.tableName(), truncations, checkpointId, failed.cause()),
            failed.cause());
      }
    }
  }

  /** The last transaction version the table records for {@code appId}, or -1. */
  public long transactionVersion(String appId) {
    try (var loader = ConnectorClassLoader.enter()) {
      return table().transactionVersion(appId);
    }
  }

  private DeltaTable table() {
    if (table == null) {
      table =
          DeltaTable.open(
              TableRequest.of(config.table(), config.hadoopConf())
                  .withMaxCommitRetries(config.maxCommitRetries()));
      if (config.layout() != null) {
        table.checkCommitsAgainst(config.layout());
      } else {
        // A dynamic sink's writers evolve the table while earlier files wait for this commit.
        table.followSchemaChanges();
      }
      if (config.upserts()) {
        table.settleStaleDeletesBy(config.primaryKey());
      }
      checkpoints = table.checkpoints(config.deltaCheckpointInterval(), background);
      metrics.watch(checkpoints);
      // An upsert sink's writers compact their own files (UpsertCompaction).
      if (config.compaction() != null && !config.upserts()) {
        compaction = metrics.compactionOf(config, background);
      }
    }
    return table;
  }

  @Override
  public void close() {
    if (table != null) {
      try (var loader = ConnectorClassLoader.enter()) {
        try {
          checkpoints.close();
        } finally {
          try {
            if (compaction != null) {
              compaction.close();
            }
          } finally {
            if (background == null) {
              table.close();
            } else {
              // A Delta checkpoint of the table may still run on the shared thread: the table
              // (its storage lease, its catalog client) closes there, after it.
              BackgroundThreads.release(background, false, table::close);
            }
          }
        }
      }
      table = null;
      checkpoints = null;
      compaction = null;
    }
  }
}
