package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.table.CommitResult;
import io.github.flinkdelta.core.table.DeltaCheckpoints;
import io.github.flinkdelta.core.table.DeltaTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
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
 * than skip rows. Any other failure fails the task, and Flink retries the commit after restoring
 * the checkpoint, so files are never dropped. A restored state older than the table is refused by
 * {@link DeltaWriteResultAggregator} when the job starts, unless a new app id is configured.
 */
final class DeltaCommitter implements Committer<DeltaCommittable> {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaCommitter.class);

  private final DeltaSinkConfig config;
  private final OptionalLong restoredCheckpointId;
  private final DeltaCommitterMetrics metrics;
  private DeltaTable table;
  private DeltaCheckpoints checkpoints;

  /**
   * @param receivesCommittables whether this subtask is the one the aggregator sends every
   *     committable to: it loads the table now, so that the first commit after a (re)start does not
   *     wait for the snapshot
   */
  DeltaCommitter(
      DeltaSinkConfig config,
      OptionalLong restoredCheckpointId,
      DeltaCommitterMetrics metrics,
      boolean receivesCommittables) {
    this.config = config;
    this.restoredCheckpointId = restoredCheckpointId;
    this.metrics = metrics;
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
    long started = System.nanoTime();
    CommitResult result =
        table().commit(committable.appId(), committable.checkpointId(), committable.files());
    metrics.attempted(result);
    if (result.committed()) {
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      // The checkpoint thread reads this snapshot while the next commit builds on it. Kernel's
      // snapshot state is immutable, and its lazily loaded parts are single-check caches of
      // immutable values: the two threads can at worst both load one, never see a broken one.
      checkpoints.committed(table.snapshot());
      long records = committable.files().numRecords();
      metrics.committed(result, durationMs, committable.files().size(), records);
      LOG.info(
          "Committed {} version {} (checkpoint {}, appId {}, {} files, {} rows, {} bytes) in {} ms"
              + " (publish {} ms)",
          config.tableName(),
          result.tableVersion(),
          committable.checkpointId(),
          committable.appId(),
          committable.files().size(),
          records,
          committable.files().sizeBytes(),
          durationMs,
          result.publishMillis());
      reloadIfDue();
      return;
    }
    // Kernel refuses a transaction whose version the table's app id has reached. Commits of one
    // app id land in checkpoint order, so a committable restored from state is in the table
    // already. (Whether restored state is older than the table is the aggregator's decision, made
    // once when the job starts; a commit whose response was lost is settled inside DeltaTable.)
    long tableTxn = result.tableTxnVersion();
    long checkpoint = committable.checkpointId();
    boolean replay =
        restoredCheckpointId.isPresent() && checkpoint <= restoredCheckpointId.getAsLong();
    if (!replay) {
      // The table is ahead of a checkpoint this job just took: another job commits under the same
      // app id. Skipping would drop these rows.
      throw new SuppressRestartsException(
          new IllegalStateException(
              SinkErrors.appIdUsedConcurrently(
                  config.tableName(), committable.appId(), checkpoint, tableTxn)));
    }
    LOG.info(
        "Checkpoint {} of appId {} is already committed to {} (the table holds its checkpoints up"
            + " to {}); skipping it",
        checkpoint,
        committable.appId(),
        config.tableName(),
        tableTxn);
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

  private DeltaTable table() {
    if (table == null) {
      table = DeltaTable.open(config.table(), config.hadoopConf(), config.maxCommitRetries());
      checkpoints = table.checkpoints(config.deltaCheckpointInterval());
      metrics.watch(checkpoints);
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
          table.close();
        }
      }
      table = null;
      checkpoints = null;
    }
  }
}
