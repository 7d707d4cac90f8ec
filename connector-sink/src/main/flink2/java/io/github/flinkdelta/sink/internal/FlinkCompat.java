/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;

/** The Sink V2 calls whose shape differs between Flink 1.20 and 2.x: the Flink 2.x variant. */
@Internal
public final class FlinkCompat {

  private FlinkCompat() {}

  /** Flink 2.x: a sink implements only {@code createWriter(WriterInitContext)}. */
  public abstract static class SinkBase<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;
  }

  public static long checkpointId(CommittableMessage<?> message) {
    return message.getCheckpointId();
  }

  public static <T> CommittableSummary<T> summary(
      int subtaskId, int numberOfSubtasks, long checkpointId, int numberOfCommittables) {
    return new CommittableSummary<>(
        subtaskId, numberOfSubtasks, checkpointId, numberOfCommittables, 0);
  }
}
