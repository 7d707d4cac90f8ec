package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import io.github.flinkdelta.core.table.CommitResult;
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
 * once the checkpoint is complete.
 *
 * <p>Failure semantics: a committable restored from state whose transaction the table already holds
 * is skipped ({@code signalAlreadyCommitted}). Any other failure fails the task, and Flink retries
 * the commit after restoring the checkpoint, so files are never dropped. A table that is ahead of
 * the restored state stops the job without restarts: committing would skip data.
 */
final class DeltaCommitter implements Committer<DeltaCommittable> {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaCommitter.class);

  private final DeltaSinkConfig config;
  private final OptionalLong restoredCheckpointId;
  private final DeltaCommitterMetrics metrics;
  private DeltaTable table;

  DeltaCommitter(
      DeltaSinkConfig config, OptionalLong restoredCheckpointId, DeltaCommitterMetrics metrics) {
    this.config = config;
    this.restoredCheckpointId = restoredCheckpointId;
    this.metrics = metrics;
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
    if (result.committed()) {
      long durationMs = (System.nanoTime() - started) / 1_000_000;
      long records = committable.files().stream().mapToLong(DataFile::numRecords).sum();
      metrics.committed(result.tableVersion(), durationMs, committable.files().size(), records);
      LOG.info(
          "Committed {} version {} (checkpoint {}, appId {}, {} files, {} rows, {} bytes) in {} ms",
          config.tableName(),
          result.tableVersion(),
          committable.checkpointId(),
          committable.appId(),
          committable.files().size(),
          records,
          committable.files().stream().mapToLong(DataFile::sizeBytes).sum(),
          durationMs);
      return;
    }
    long tableTxn = result.tableTxnVersion();
    boolean replay =
        tableTxn == committable.checkpointId()
            || (restoredCheckpointId.isPresent() && tableTxn <= restoredCheckpointId.getAsLong());
    if (replay) {
      LOG.info(
          "Checkpoint {} of appId {} is already committed to {}; skipping it",
          committable.checkpointId(),
          committable.appId(),
          config.tableName());
      request.signalAlreadyCommitted();
      return;
    }
    throw new SuppressRestartsException(
        new IllegalStateException(
            SinkErrors.restoredStateOlderThanTable(
                config.tableName(),
                committable.appId(),
                restoredCheckpointId.orElse(0),
                tableTxn)));
  }

  private DeltaTable table() {
    if (table == null) {
      table = DeltaTable.open(config.table(), config.hadoopConf(), config.maxCommitRetries());
    }
    return table;
  }

  @Override
  public void close() {
    if (table != null) {
      try (var loader = ConnectorClassLoader.enter()) {
        table.close();
      }
      table = null;
    }
  }
}
