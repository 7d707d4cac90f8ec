/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.committer.DeltaCommitter;
import io.github.flinkdelta.sink.committer.DeltaCommitterMetrics;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * One table of a dynamic sink's committer: the single-table sink's {@link DeltaCommitter} on it,
 * opened at the table's first commit. Before that first commit after a restore, the table is
 * checked for commits of the app id past the restored checkpoint (restored state older than the
 * table), which the single-table sink checks when the job starts.
 *
 * <p>A checkpoint that drops the table commits its rows, then drops it ({@link TableDrops}); the
 * next checkpoint's rows go to the table created anew. Sent again after a failure, a drop whose
 * table is gone or was created anew since finds its rows and its drop done, and skips both.
 */
final class TableCommit implements AutoCloseable {

  private final String name;
  private final DynamicSinkConfig config;
  private final TableDrops drops;
  private final OptionalLong restoredCheckpointId;
  private final boolean checkRestoredState;
  private final ExecutorService background;
  private DeltaCommitter committer;

  /**
   * @param checkRestoredState whether the table's first commit checks it for commits past the
   *     restored checkpoint: once per table and job run, not again when the table was closed and
   *     opened again (it then holds this run's own commits)
   * @param background the thread the table's Delta checkpoints and compactions share with the other
   *     tables'
   */
  TableCommit(
      String name,
      DynamicSinkConfig config,
      TableDrops drops,
      OptionalLong restoredCheckpointId,
      boolean checkRestoredState,
      ExecutorService background) {
    this.name = name;
    this.background = background;
    this.config = config;
    this.drops = drops;
    this.restoredCheckpointId = restoredCheckpointId;
    this.checkRestoredState = checkRestoredState;
  }

  String name() {
    return config.names().fullName(name);
  }

  /**
   * Commits the table's requests of one completed checkpoint (or of several, after a restore), in
   * checkpoint order; a truncation or drop follows the version of the checkpoint that carries it,
   * before the next checkpoint's.
   */
  void commit(List<DynamicCommitter.TableCommitRequest> requests) {
    List<DynamicCommitter.TableCommitRequest> ordered = new ArrayList<>(requests);
    ordered.sort(Comparator.comparingLong(request -> request.getCommittable().checkpointId()));
    List<DynamicCommitter.TableCommitRequest> beforeDrop = new ArrayList<>();
    for (DynamicCommitter.TableCommitRequest request : ordered) {
      beforeDrop.add(request);
      String dropped = request.dropsTableId();
      if (dropped != null) {
        commitAndDrop(beforeDrop, dropped);
        beforeDrop = new ArrayList<>();
      }
    }
    if (!beforeDrop.isEmpty()) {
      commitInOrder(beforeDrop);
    }
  }

  /**
   * Commits {@code requests} into the table of id {@code tableId}, then drops it; when the name no
   * longer stands for that table, all of it was done before.
   */
  private void commitAndDrop(List<DynamicCommitter.TableCommitRequest> requests, String tableId) {
    if (!drops.stillHolds(name, tableId)) {
      requests.forEach(DynamicCommitter.TableCommitRequest::signalAlreadyCommitted);
      return;
    }
    commitInOrder(requests);
    close();
    drops.dropIfStill(name, tableId);
  }

  private void commitInOrder(List<DynamicCommitter.TableCommitRequest> ordered) {
    if (committer == null) {
      committer = open(ordered.get(0).getCommittable().appId());
    }
    List<CommitRequest<DeltaCommittable>> batch = new ArrayList<>();
    for (DynamicCommitter.TableCommitRequest request : ordered) {
      batch.add(request);
      if (request.truncates()) {
        committer.commit(batch);
        batch = new ArrayList<>();
        DeltaCommittable committable = request.getCommittable();
        committer.truncate(committable.appId(), committable.checkpointId());
      }
    }
    if (!batch.isEmpty()) {
      committer.commit(batch);
    }
  }

  private DeltaCommitter open(String appId) {
    TableLocator locator;
    KeyColumns key;
    // One look at the table gives where it is and the key it records.
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table =
            DeltaTable.open(TableRequest.of(config.names().reference(name), config.hadoopConf()))) {
      // A table dropped since the writers created it fails here, naming it.
      locator = table.locator();
      key = recordedKey(table);
    }
    DeltaCommitter opened =
        new DeltaCommitter(
            config.tableConfig(name, locator, key),
            restoredCheckpointId,
            // Per-table metrics would grow with the tables; the dynamic committer reports totals.
            new DeltaCommitterMetrics(new UnregisteredMetricsGroup(), name(), Clock.systemUTC()),
            true,
            background);
    if (checkRestoredState && restoredCheckpointId.isPresent()) {
      long tableTxn = opened.transactionVersion(appId);
      long restored = restoredCheckpointId.getAsLong();
      if (tableTxn > restored) {
        opened.close();
        throw new SuppressRestartsException(
            new IllegalStateException(
                SinkErrors.restoredStateOlderThanTable(name(), appId, restored, tableTxn)));
      }
    }
    return opened;
  }

  /**
   * The primary key the table records (the dynamic sink's upsert writers record it when they create
   * the table or first write it), as the table stores keys; null for a table without one.
   */
  private KeyColumns recordedKey(DeltaTable table) {
    List<String> key = UpsertTables.recordedKey(table.snapshot().getTableProperties());
    if (key.isEmpty()) {
      return null;
    }
    StructType schema = table.snapshot().getSchema();
    return KeyColumns.of(name(), DeltaTypes.toFlinkRowType(schema), key).forTable(schema);
  }

  @Override
  public void close() {
    if (committer != null) {
      committer.close();
      committer = null;
    }
  }
}
