/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.flinkdelta.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;

/** The Sink V2 calls whose shape differs between Flink 1.20 and 2.x: the Flink 1.20 variant. */
@Internal
public final class FlinkCompat {

  private FlinkCompat() {}

  /**
   * Flink 1.20 still declares the abstract {@code createWriter(Sink.InitContext)}; its runtime
   * calls {@code createWriter(WriterInitContext)}, which the sink overrides.
   */
  public abstract static class SinkBase<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    @Deprecated
    public final SinkWriter<T> createWriter(Sink.InitContext context) {
      throw new UnsupportedOperationException(
          "Flink 1.20 creates Sink V2 writers through createWriter(WriterInitContext)");
    }
  }

  public static long checkpointId(CommittableMessage<?> message) {
    return message.getCheckpointIdOrEOI();
  }

  public static <T> CommittableSummary<T> summary(
      int subtaskId, int numberOfSubtasks, long checkpointId, int numberOfCommittables) {
    return new CommittableSummary<>(
        subtaskId, numberOfSubtasks, checkpointId, numberOfCommittables, 0, 0);
  }
}
