/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.committer.AggregatorState;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.internal.FlinkCompat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers the write results of all writer subtasks (parallelism 1) and emits, per checkpoint, one
 * {@link DynamicCommittable} for each table with files in it, tagged with the sink's app id. With a
 * {@link DynamicSinkOptions#COMMIT_INTERVAL commit interval}, a table's results wait, in this
 * operator's state, for the first checkpoint the interval allows ({@link WaitingResults}), and the
 * results of every checkpoint in between become one committable of that checkpoint.
 *
 * <p>The app id lives in this operator's state, as in the single-table sink: made once when the job
 * first starts (or taken from {@code sink.app-id}), it survives restores under a new job id. Each
 * table learns of it with its first commit; whether restored state is older than a table is checked
 * by the committer when it first commits to the table.
 */
final class DynamicWriteResultAggregator
    extends AbstractStreamOperator<CommittableMessage<DynamicCommittable>>
    implements OneInputStreamOperator<
            CommittableMessage<DynamicWriteResult>, CommittableMessage<DynamicCommittable>>,
        BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DynamicWriteResultAggregator.class);

  private final DynamicSinkConfig config;

  private transient AggregatorState state;
  private transient WaitingResults waiting;
  private transient String appId;

  /** Per checkpoint, per table: the results of every writer subtask. */
  private transient TreeMap<Long, Map<String, List<DynamicWriteResult>>> pending;

  DynamicWriteResultAggregator(DynamicSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    pending = new TreeMap<>();
    state = AggregatorState.restore(context);
    waiting = WaitingResults.restore(config, context);
    String restored = state.restoredAppId();
    if (config.appId() != null) {
      appId = config.appId();
    } else {
      appId = restored != null ? restored : config.defaultAppId();
    }
    LOG.info("Dynamic Delta sink writes its tables under app id {}", appId);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    state.snapshot(appId, context.getCheckpointId());
    waiting.snapshot();
  }

  /** Gathers a writer subtask's results of one table, by the checkpoint that commits them. */
  @Override
  public void processElement(StreamRecord<CommittableMessage<DynamicWriteResult>> element) {
    if (element.getValue() instanceof CommittableWithLineage<DynamicWriteResult> message) {
      DynamicWriteResult result = message.getCommittable();
      long checkpoint = state.checkpointOf(message, result.table());
      pending
          .computeIfAbsent(checkpoint, id -> new LinkedHashMap<>())
          .computeIfAbsent(result.table(), table -> new ArrayList<>())
          .add(result);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) {
    state.barrier(checkpointId);
    emit(checkpointId, pending.headMap(checkpointId, true), false);
  }

  @Override
  public void endInput() {
    long last = pending.isEmpty() ? 0 : pending.lastKey();
    emit(Math.max(last, state.nextCheckpoint()), pending, true);
  }

  /** One table's part of checkpoint {@code id}: after a rescale, deletes of one file are united. */
  private DeltaCommittable committable(long id, List<DynamicWriteResult> results) {
    return new DeltaCommittable(
        appId,
        id,
        DataFiles.concat(results.stream().map(DynamicWriteResult::files).toList()),
        FileDeletes.union(results.stream().map(DynamicWriteResult::deletes).toList()));
  }

  /** The id of the table a router dropped after the checkpoint's rows; null when none did. */
  private static String droppedTableId(List<DynamicWriteResult> results) {
    for (DynamicWriteResult result : results) {
      if (result.dropsTableId() != null) {
        return result.dropsTableId();
      }
    }
    return null;
  }

  /**
   * Emits, as committables of checkpoint {@code id}, the results of the tables due for a version:
   * those of {@code parts} and those that waited.
   *
   * @param all whether every table is due (the input ended)
   */
  private void emit(long id, Map<Long, Map<String, List<DynamicWriteResult>>> parts, boolean all) {
    parts.values().forEach(tables -> tables.values().forEach(r -> r.forEach(waiting::add)));
    parts.clear();
    Map<String, List<DynamicWriteResult>> due =
        waiting.takeDue(getProcessingTimeService().getCurrentProcessingTime(), all);
    if (due.isEmpty()) {
      return;
    }
    output.collect(
        new StreamRecord<>(FlinkCompat.<DynamicCommittable>summary(0, 1, id, due.size())));
    due.forEach(
        (table, results) ->
            output.collect(
                new StreamRecord<>(
                    new CommittableWithLineage<>(
                        new DynamicCommittable(
                            table,
                            committable(id, results),
                            results.stream().anyMatch(DynamicWriteResult::truncates),
                            droppedTableId(results)),
                        id,
                        0))));
  }
}
