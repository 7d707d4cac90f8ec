/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.sink.internal.FlinkCompat;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sink's aggregator keeps in its operator state: the sink's app id, and the latest
 * checkpoint whose barrier passed it, by which it tells the writers' last files at the end of the
 * input from a checkpoint's ({@link #checkpointOf}).
 */
@Internal
public final class AggregatorState {

  private static final Logger LOG = LoggerFactory.getLogger(AggregatorState.class);

  private final ListState<String> appIds;
  private final ListState<Long> checkpoints;
  private final String restoredAppId;
  private long lastCheckpoint;

  private AggregatorState(
      ListState<String> appIds, ListState<Long> checkpoints, String restoredAppId, long last) {
    this.appIds = appIds;
    this.checkpoints = checkpoints;
    this.restoredAppId = restoredAppId;
    this.lastCheckpoint = last;
  }

  /** The state of an aggregator, as the checkpoint it starts from left it. */
  public static AggregatorState restore(StateInitializationContext context) throws Exception {
    ListState<String> appIds =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>("delta-sink-app-id", String.class));
    ListState<Long> checkpoints =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>("delta-sink-last-checkpoint", Long.class));
    String appId = null;
    for (String value : appIds.get()) {
      appId = value;
    }
    long last = context.getRestoredCheckpointId().orElse(0);
    for (Long checkpoint : checkpoints.get()) {
      last = Math.max(last, checkpoint);
    }
    return new AggregatorState(appIds, checkpoints, appId, last);
  }

  /** The app id the restored state holds, or null. */
  public String restoredAppId() {
    return restoredAppId;
  }

  /**
   * The checkpoint whose commit takes the files of {@code message}. Files written for a checkpoint
   * reach the aggregator before the checkpoint's barrier does; those tagged with a checkpoint whose
   * barrier passed already are the writers' last files at the end of the input, which Flink tags
   * with the checkpoint after the writer's last known one (1, for a writer restarted without a
   * restored checkpoint id). Committed under such an id, the table would take them for a replay of
   * a committed checkpoint and skip them: they take the next id.
   *
   * @param table the table, for the log
   */
  public long checkpointOf(CommittableMessage<?> message, String table) {
    long checkpoint = FlinkCompat.checkpointId(message);
    if (checkpoint > lastCheckpoint) {
      return checkpoint;
    }
    LOG.warn(
        "Write results of {} tagged with checkpoint {}, which has passed (last {}): taken as the"
            + " end of the input's, committed with checkpoint {}",
        table,
        checkpoint,
        lastCheckpoint,
        nextCheckpoint());
    return nextCheckpoint();
  }

  /** The id of the checkpoint after the last whose barrier passed. */
  public long nextCheckpoint() {
    return lastCheckpoint + 1;
  }

  /** The barrier of {@code checkpointId} reached the aggregator. */
  public void barrier(long checkpointId) {
    lastCheckpoint = Math.max(lastCheckpoint, checkpointId);
  }

  /** Keeps {@code appId} and the checkpoints passed in the snapshot of {@code checkpointId}. */
  public void snapshot(String appId, long checkpointId) throws Exception {
    appIds.update(List.of(appId));
    checkpoints.update(List.of(Math.max(lastCheckpoint, checkpointId)));
  }
}
