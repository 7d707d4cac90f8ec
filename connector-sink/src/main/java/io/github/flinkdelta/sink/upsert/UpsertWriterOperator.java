/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.DeltaWriteResultSerializer;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * The writer of an upsert sink: a keyed operator (rows arrive keyed by their primary key) that
 * writes each new value into an open data file and keeps an index from every key to its live row
 * (file id and row position), in keyed state ({@link UpsertKeyIndex}: on the heap per key group, or
 * in the state backend). The table's writing is a {@link TableUpsertWriter}; this operator gives it
 * the index, the keyed context and the state.
 *
 * <p>Why a keyed operator before the Sink V2 writer: a sink writer has no keyed state, and only
 * keyed state (raw or managed) moves with its keys when the job is rescaled, so only it keeps the
 * index exact at any parallelism. The operator is the file writer itself because the index needs
 * each row's position at the moment it is written.
 */
@Internal
public final class UpsertWriterOperator extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {

  private static final long serialVersionUID = 1L;

  private final DeltaSinkConfig config;

  private transient UpsertKeyIndex index;
  private transient UpsertWriterState state;
  private transient TableUpsertWriter writer;

  public UpsertWriterOperator(DeltaSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state = new UpsertWriterState(context.getOperatorStateStore());
    UpsertWriterState.Restored restored = state.restore();
    IndexKeys keys = IndexKeys.of(keyGroupRange(), maxParallelism());
    index =
        new KeyIndexLoader(config, subtask(), keys)
            .open(
                getKeyedStateBackend(),
                context.getRawKeyedStateInputs(),
                restored.any(),
                restored.onHeap(),
                restored.generation());
    DeltaWriteResultSerializer serializer = new DeltaWriteResultSerializer();
    writer =
        new TableUpsertWriter(
            config,
            subtask(),
            getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
            keys,
            index,
            restored,
            result ->
                output.collect(
                    new StreamRecord<>(WriteResultRows.of(serializer.serialize(result)))));
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

  @Override
  public void open() throws Exception {
    super.open();
    writer.open(
        getMetricGroup(),
        (table, prefix) ->
            new PartitionedDataWriter(
                table.layout(),
                table.storageConf(),
                table.tablePath(),
                table.writeOptions(),
                prefix,
                false),
        null,
        Duration.ZERO,
        null);
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    writer.write((String) getCurrentKey(), element.getValue());
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    writer.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void endInput() throws Exception {
    // Nothing may follow the last hand-over: the sink's writer has seen the end of its input too.
    writer.endInput();
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    state.snapshot(writer.state(index.onHeap()));
    index.snapshotState(context);
  }

  @Override
  public void close() throws Exception {
    try {
      if (writer != null) {
        writer.close();
      }
    } finally {
      super.close();
    }
  }

  /** The write result a row from this operator carries. */
  static DeltaWriteResult resultOf(RowData row) throws IOException {
    return new DeltaWriteResultSerializer()
        .deserialize(DataFileSerialization.VERSION, row.getBinary(0));
  }
}
