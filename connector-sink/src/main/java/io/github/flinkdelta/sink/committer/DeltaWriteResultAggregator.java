/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.FlinkCompat;
import io.github.flinkdelta.sink.internal.SinkErrors;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;
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
 * Gathers the write results of all writer subtasks (parallelism 1) and emits one {@link
 * DeltaCommittable} per checkpoint, tagged with the sink's app id; a checkpoint without rows gets
 * an empty one.
 *
 * <p>The app id lives in this operator's state: made once when the job first starts (or taken from
 * {@code sink.app-id}), it survives restores under a new job id. On restore, the operator checks
 * the table: if the table already holds commits of the app id past the restored checkpoint, the
 * state is older than the table and the job stops rather than skip data.
 */
@Internal
public final class DeltaWriteResultAggregator
    extends AbstractStreamOperator<CommittableMessage<DeltaCommittable>>
    implements OneInputStreamOperator<
            CommittableMessage<DeltaWriteResult>, CommittableMessage<DeltaCommittable>>,
        BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DeltaWriteResultAggregator.class);

  private final DeltaSinkConfig config;

  private transient AggregatorState state;

  private transient String appId;
  private transient TreeMap<Long, List<DeltaWriteResult>> pending;

  public DeltaWriteResultAggregator(DeltaSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    pending = new TreeMap<>();
    state = AggregatorState.restore(context);
    String restored = state.restoredAppId();
    if (config.appId() != null) {
      appId = config.appId();
      if (restored != null && !restored.equals(appId)) {
        LOG.warn(
            "Delta sink for {} continues under the configured app id {} instead of the restored"
                + " app id {}",
            config.tableName(),
            appId,
            restored);
      }
    } else {
      // At a first start, the id the writers of an upsert sink take too.
      appId = restored != null ? restored : config.defaultAppId();
    }

    boolean restoredState = context.getRestoredCheckpointId().isPresent();
    if (restoredState || config.appId() != null) {
      long tableTxn;
      long restoredTxn;
      try (var loader = ConnectorClassLoader.enter();
          DeltaTable table =
              DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()))) {
        tableTxn = table.transactionVersion(appId);
        restoredTxn = restored == null ? -1 : table.transactionVersion(restored);
      }
      if (restoredState
          && config.upserts()
          && restoredTxn > context.getRestoredCheckpointId().getAsLong()) {
        // Under any app id: the restored key index points at rows the table no longer holds.
        throw new SuppressRestartsException(
            new IllegalStateException(
                SinkErrors.upsertStateOlderThanTable(
                    config.tableName(),
                    restored,
                    context.getRestoredCheckpointId().getAsLong(),
                    restoredTxn)));
      }
      if (restoredState) {
        long checkpoint = context.getRestoredCheckpointId().getAsLong();
        if (tableTxn > checkpoint) {
          throw new SuppressRestartsException(
              new IllegalStateException(
                  SinkErrors.restoredStateOlderThanTable(
                      config.tableName(), appId, checkpoint, tableTxn)));
        }
      } else if (tableTxn >= 0) {
        throw new SuppressRestartsException(
            new IllegalStateException(
                SinkErrors.appIdAlreadyUsed(config.tableName(), appId, tableTxn)));
      }
    }
    LOG.info("Delta sink for {} writes under app id {}", config.tableName(), appId);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    state.snapshot(appId, context.getCheckpointId());
  }

  @Override
  public void processElement(StreamRecord<CommittableMessage<DeltaWriteResult>> element) {
    if (element.getValue() instanceof CommittableWithLineage<DeltaWriteResult> result) {
      long checkpoint = state.checkpointOf(result, config.tableName());
      pending.computeIfAbsent(checkpoint, id -> new ArrayList<>()).add(result.getCommittable());
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) {
    state.barrier(checkpointId);
    // A checkpoint without rows still gets its (empty) committable, so that the committer can tell
    // an idle sink from a stalled one.
    pending.computeIfAbsent(checkpointId, id -> new ArrayList<>());
    emitUpTo(checkpointId);
  }

  @Override
  public void endInput() {
    emitUpTo(Long.MAX_VALUE);
  }

  private void emitUpTo(long checkpointId) {
    Iterator<Map.Entry<Long, List<DeltaWriteResult>>> it =
        pending.headMap(checkpointId, true).entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Long, List<DeltaWriteResult>> entry = it.next();
      long id = entry.getKey();
      List<DeltaWriteResult> results = entry.getValue();
      // After a rescale, two writers may delete rows of one file: their deletes are united.
      DeltaCommittable committable =
          new DeltaCommittable(
              appId,
              id,
              DataFiles.concat(results.stream().map(DeltaWriteResult::files).toList()),
              FileDeletes.union(results.stream().map(DeltaWriteResult::deletes).toList()));
      output.collect(new StreamRecord<>(FlinkCompat.<DeltaCommittable>summary(0, 1, id, 1)));
      output.collect(new StreamRecord<>(new CommittableWithLineage<>(committable, id, 0)));
      it.remove();
    }
  }
}
