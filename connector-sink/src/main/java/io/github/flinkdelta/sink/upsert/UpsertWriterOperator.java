/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.IndexCatchUp;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.RowLocation;
import io.github.flinkdelta.sink.compaction.UpsertCompaction;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import io.github.flinkdelta.sink.writer.DeltaSinkWriterMetrics;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.DeltaWriteResultSerializer;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of an upsert sink: a keyed operator (rows arrive keyed by their primary key) that
 * writes each new value into an open data file and keeps an index from every key to its live row
 * (file id and row position), in keyed state ({@link UpsertKeyIndex}: on the heap per key group, or
 * in the state backend). A row that replaces a key, or deletes it, marks the key's previous row
 * deleted; at each checkpoint barrier the operator completes its files and hands files and deletes
 * to the sink's writer as one {@link DeltaWriteResult}, which the committer commits with deletion
 * vectors.
 *
 * <p>Why a keyed operator before the Sink V2 writer: a sink writer has no keyed state, and only
 * keyed state (raw or managed) moves with its keys when the job is rescaled, so only it keeps the
 * index exact at any parallelism. The operator is the file writer itself because the index needs
 * each row's position at the moment it is written.
 *
 * <p>The index follows the table: other writers change it too (a compaction or {@code OPTIMIZE}
 * moves rows, a {@code DELETE}, {@code UPDATE} or {@code MERGE} deletes and writes them, a backfill
 * appends). After each checkpoint an {@link IndexFollower} reads what the versions since the
 * index's version did to the subtask's keys, and at the next barrier the operator applies it
 * ({@link IndexCatchUp}). Each hand-over names the index version its checkpoint began with, and the
 * committer settles the checkpoint's keys against what other writers added after it, so a commit is
 * exact however far the index lags.
 *
 * <p>Exactly once: the index in a checkpoint points into files that the same checkpoint's
 * committable commits (or that are in the table already); a restore from an earlier checkpoint
 * restores the index of that checkpoint with it, and what the restored checkpoints left pending
 * ({@link PendingWrites}). When the operator starts without an index (the first start of a sink, on
 * a table that may hold rows), it reads the keys of the table's live rows first, each subtask
 * keeping those of its key groups.
 */
@Internal
public final class UpsertWriterOperator extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  private final DeltaSinkConfig config;

  private transient PartitionedDataWriter files;
  private transient UpsertKeyIndex index;

  private transient UpsertWriterState state;

  /** The table version up to which the index has taken in the changes of other writers. */
  private transient long indexVersion;

  private transient long generation;
  private transient long lastResult;

  /** The sink's app id; null when restored from state that did not keep it. */
  private transient String appId;

  private transient PendingWrites pending;
  private transient FileDeletes deletes;
  private transient DeltaWriteResultSerializer serializer;
  private transient DeltaSinkWriterMetrics metrics;
  private transient Counter deleted;
  private transient Counter foreignRows;
  private transient UpsertCompaction compaction;
  private transient IndexFollower follower;
  private transient KeyIndexMoves moves;

  public UpsertWriterOperator(DeltaSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state = new UpsertWriterState(context.getOperatorStateStore());
    UpsertWriterState.Restored restored = state.restore();
    deletes = new FileDeletes();
    // Subtasks follow the log at their own pace; after a rescale, the least version is where
    // every restored entry is caught up.
    indexVersion = restored.indexVersion();
    generation = restored.generation();
    lastResult = restored.lastResult();
    appId = config.appIdFor(restored.appId(), restored.any());
    pending = restored.pending();
    index =
        loader()
            .open(
                getKeyedStateBackend(),
                context.getRawKeyedStateInputs(),
                restored.any(),
                restored.onHeap(),
                generation);
    if (!restored.any()) {
      buildIndex();
    } else if (!loader().canFollow(indexVersion)) {
      rebuildIndex();
    }
  }

  private int maxParallelism() {
    return getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
  }

  private int subtask() {
    return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
  }

  private KeyGroupRange keyGroupRange() {
    return KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
        maxParallelism(),
        getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
        subtask());
  }

  /**
   * Always: the heap index writes raw keyed state, and a restored checkpoint may hold that of a
   * heap index whichever kind is configured now. Flink asks before the state backend exists.
   */
  @Override
  protected boolean isUsingCustomRawKeyedState() {
    return true;
  }

  /**
   * Reads the table's keys into a new generation of the index when the restored index cannot follow
   * the log (log cleanup removed the versions after it): once the table holds every commit of the
   * restored checkpoints, so that no restored row is missed.
   */
  private void rebuildIndex() throws InterruptedException {
    if (appId == null) {
      throw new IllegalStateException(SinkErrors.followNeedsAppId(config.tableName()));
    }
    loader().awaitCommitted(appId, lastResult);
    LOG.info(
        "Delta upsert writer {} of {} reads the table's keys anew: its log no longer holds the"
            + " versions after {}, which the restored key index has taken in",
        subtask(),
        config.tableName(),
        indexVersion);
    generation++;
    index.startGeneration(generation);
    pending = new PendingWrites();
    buildIndex();
  }

  private void buildIndex() {
    indexVersion = loader().readTable(index, deletes);
  }

  private KeyIndexLoader loader() {
    return new KeyIndexLoader(config, subtask(), keyGroupRange(), maxParallelism());
  }

  @Override
  public void open() throws Exception {
    super.open();
    serializer = new DeltaWriteResultSerializer();
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    String prefix = String.format("part-%05d-%s", subtask(), UUID.randomUUID());
    try (var loader = ConnectorClassLoader.enter()) {
      files =
          new PartitionedDataWriter(
              config.layout(),
              config.storageConf(),
              config.tablePath(),
              config.writeOptions(),
              prefix,
              false);
    }
    metrics = DeltaSinkWriterMetrics.ofUpsertWriter(getMetricGroup(), config.tableName(), files);
    MetricGroup delta = DeltaSinkWriterMetrics.deltaGroup(getMetricGroup(), config.tableName());
    deleted = delta.counter("numRowsDeleted");
    foreignRows = delta.counter("numForeignRowChangesFollowed");
    delta.gauge("keyIndexVersion", () -> indexVersion);
    if (config.compaction() != null) {
      compaction =
          new UpsertCompaction(
              config,
              subtask(),
              getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
              maxParallelism(),
              delta,
              System::nanoTime);
    }
    follower = new IndexFollower(config, subtask(), keyGroupRange(), maxParallelism(), appId);
    moves = new KeyIndexMoves(config, subtask());
    follower.request(indexVersion);
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    String key = (String) getCurrentKey();
    RowLocation previous = index.get(key);
    switch (row.getRowKind()) {
      case INSERT, UPDATE_AFTER -> {
        if (previous != null) {
          deletes.add(previous.fileId(), previous.position());
        }
        RowLocation location;
        try (var loader = ConnectorClassLoader.enter()) {
          location = files.append(row);
        }
        index.put(key, location);
        metrics.recordWritten();
      }
      case DELETE, UPDATE_BEFORE -> {
        // An UPDATE_BEFORE retracts the key's row; the UPDATE_AFTER that follows writes it anew.
        if (previous != null) {
          deletes.add(previous.fileId(), previous.position());
          index.remove(key);
          deleted.inc();
        }
        // Also when the index knows no row of the key: another writer may have written it in a
        // version the index has not taken in yet, which the commit settles by this key.
        deletes.addDeletedKey(key);
      }
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    if (handOver(checkpointId)) {
      lastResult = checkpointId;
    }
    catchUp();
    follower.request(indexVersion);
  }

  @Override
  public void endInput() throws Exception {
    handOver(Long.MAX_VALUE);
    // Nothing may follow the last hand-over: the sink's writer has seen the end of its input too.
    // A compaction still running is dropped, its files left for a vacuum.
    if (compaction != null) {
      compaction.close();
      compaction = null;
    }
  }

  /**
   * Completes the open files and sends them, with the deletes, the index version the checkpoint
   * began with and a ready compaction, on to the sink's writer.
   *
   * @return whether there was anything to send
   */
  private boolean handOver(long checkpointId) throws IOException {
    DataFiles completed;
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      completed = files.flush();
    }
    metrics.flushed((System.nanoTime() - started) / 1_000_000);
    metrics.filesCompleted(completed);
    List<Long> written = new ArrayList<>();
    for (DataFile file : completed.toList()) {
      written.add(FileIds.of(file.path()));
    }
    Optional<UpsertCompaction.Rewrite> rewrite =
        compaction == null ? Optional.empty() : compaction.takeReady();
    List<RewriteLayout> layouts = new ArrayList<>();
    if (rewrite.isPresent()) {
      layouts.add(moves.moveIndex(index, rewrite.get()));
      deletes.addRewrite(layouts.get(0));
      completed = DataFiles.concat(List.of(completed, rewrite.get().prepared().writtenFiles()));
    }
    deletes.setIndexVersion(indexVersion);
    boolean any = !completed.isEmpty() || !deletes.isEmpty();
    if (any) {
      byte[] result = serializer.serialize(new DeltaWriteResult(completed, deletes));
      output.collect(new StreamRecord<>(WriteResultRows.of(result)));
      deletes = new FileDeletes();
      pending.handedOver(checkpointId, written, layouts);
    }
    if (compaction != null) {
      compaction.checkpointed(indexVersion);
    }
    return any;
  }

  /** Applies what other writers did to the table, as the follower has read it, to the index. */
  private void catchUp() {
    Optional<KeyChanges> ready = follower.takeReady();
    if (ready.isEmpty() || ready.get().fromVersion() != indexVersion) {
      // A read from another version (the index was read anew since) is dropped.
      return;
    }
    KeyChanges changes = ready.get();
    moves.applyForeign(index, changes, pending, deletes);
    indexVersion = changes.toVersion();
    foreignRows.inc(changes.size());
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    state.snapshot(
        indexVersion, generation, lastResult, index instanceof HeapKeyIndex, appId, pending);
    index.snapshotState(context);
  }

  @Override
  public void close() throws Exception {
    try {
      try {
        if (follower != null) {
          follower.close();
        }
      } finally {
        if (compaction != null) {
          compaction.close();
        }
      }
    } finally {
      try {
        if (files != null) {
          try (var loader = ConnectorClassLoader.enter()) {
            files.close();
          }
        }
      } finally {
        super.close();
      }
    }
  }

  /** The write result a row from this operator carries. */
  static DeltaWriteResult resultOf(RowData row) throws IOException {
    return new DeltaWriteResultSerializer()
        .deserialize(DataFileSerialization.VERSION, row.getBinary(0));
  }
}
