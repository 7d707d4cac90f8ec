package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.IndexEntries;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.metrics.Counter;
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
 * writes each new value into an open data file and keeps, in keyed state, an index from every key
 * to its live row (file id and row position). A row that replaces a key, or deletes it, marks the
 * key's previous row deleted; at each checkpoint barrier the operator completes its files and hands
 * files and deletes to the sink's writer as one {@link DeltaWriteResult}, which the committer
 * commits with deletion vectors.
 *
 * <p>Why a keyed operator before the Sink V2 writer: a sink writer has no keyed state, and only
 * keyed state moves with its keys when the job is rescaled, so only it keeps the index exact at any
 * parallelism. The operator is the file writer itself because the index needs each row's position
 * at the moment it is written.
 *
 * <p>Exactly once: the index in a checkpoint points into files that the same checkpoint's
 * committable commits (or that are in the table already); a restore from an earlier checkpoint
 * restores the index of that checkpoint with it. When the operator starts without an index (the
 * first start of a sink, on a table that may hold rows), it reads the keys of the table's live rows
 * first, each subtask keeping those of its key groups.
 */
final class UpsertWriterOperator extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  private final DeltaSinkConfig config;

  private transient PartitionedDataWriter files;
  private transient ValueState<byte[]> index;
  private transient ListState<Long> indexBuilt;
  private transient long indexVersion;
  private transient FileDeletes deletes;
  private transient DeltaWriteResultSerializer serializer;
  private transient DeltaSinkWriterMetrics metrics;
  private transient Counter deleted;

  UpsertWriterOperator(DeltaSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    // The runtime context gets its keyed state store only after this method.
    index =
        context
            .getKeyedStateStore()
            .getState(
                new ValueStateDescriptor<>(
                    "delta-upsert-index", BytePrimitiveArraySerializer.INSTANCE));
    indexBuilt =
        context
            .getOperatorStateStore()
            .getUnionListState(
                new ListStateDescriptor<>("delta-upsert-index-version", LongSerializer.INSTANCE));
    deletes = new FileDeletes();
    indexVersion = -1;
    for (Long version : indexBuilt.get()) {
      indexVersion = Math.max(indexVersion, version);
    }
    if (indexVersion < 0) {
      buildIndex();
    }
  }

  /** Reads the keys of the table's live rows into the index, those of this subtask's key groups. */
  private void buildIndex() {
    int maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
    KeyGroupRange range =
        KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
            maxParallelism,
            getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
    long started = System.nanoTime();
    long[] counts = new long[2];
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()))) {
      indexVersion = table.snapshot().getVersion();
      counts[0] =
          table.scanKeys(
              config.primaryKey(),
              (key, fileId, position) -> {
                if (!range.contains(
                    KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism))) {
                  return;
                }
                setCurrentKey(key);
                try {
                  byte[] previous = index.value();
                  if (previous != null) {
                    // The table holds the key twice: one row stays, the next commit deletes the
                    // others.
                    deletes.add(IndexEntries.fileId(previous), IndexEntries.position(previous));
                    counts[1]++;
                  }
                  index.update(IndexEntries.encode(fileId, position));
                } catch (IOException e) {
                  throw new IllegalStateException("Cannot build the key index", e);
                }
              });
    }
    LOG.info(
        "Delta upsert writer {} of {} read the keys of {} rows of version {} in {} ms{}",
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        config.tableName(),
        counts[0],
        indexVersion,
        (System.nanoTime() - started) / 1_000_000,
        counts[1] == 0 ? "" : "; " + counts[1] + " rows repeat a key and will be deleted");
  }

  @Override
  public void open() throws Exception {
    super.open();
    serializer = new DeltaWriteResultSerializer();
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    String prefix =
        String.format(
            "part-%05d-%s",
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), UUID.randomUUID());
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
    deleted =
        DeltaSinkWriterMetrics.deltaGroup(getMetricGroup(), config.tableName())
            .counter("numRowsDeleted");
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws Exception {
    RowData row = element.getValue();
    byte[] previous = index.value();
    switch (row.getRowKind()) {
      case INSERT, UPDATE_AFTER -> {
        if (previous != null) {
          deletes.add(IndexEntries.fileId(previous), IndexEntries.position(previous));
        }
        RowLocation location;
        try (var loader = ConnectorClassLoader.enter()) {
          location = files.append(row);
        }
        index.update(IndexEntries.encode(location.fileId(), location.position()));
        metrics.recordWritten();
      }
      case DELETE, UPDATE_BEFORE -> {
        // An UPDATE_BEFORE retracts the key's row; the UPDATE_AFTER that follows writes it anew.
        if (previous != null) {
          deletes.add(IndexEntries.fileId(previous), IndexEntries.position(previous));
          index.clear();
          deleted.inc();
        }
      }
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    handOver();
  }

  @Override
  public void endInput() throws Exception {
    handOver();
  }

  /** Completes the open files and sends them, with the deletes, on to the sink's writer. */
  private void handOver() throws IOException {
    DataFiles completed;
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      completed = files.flush();
    }
    metrics.flushed((System.nanoTime() - started) / 1_000_000);
    metrics.filesCompleted(completed);
    if (completed.isEmpty() && deletes.isEmpty()) {
      return;
    }
    byte[] result = serializer.serialize(new DeltaWriteResult(completed, deletes));
    output.collect(new StreamRecord<>(WriteResultRows.of(result)));
    deletes = new FileDeletes();
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    indexBuilt.update(List.of(indexVersion));
  }

  @Override
  public void close() throws Exception {
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

  /** The write result a row from this operator carries. */
  static DeltaWriteResult resultOf(RowData row) throws IOException {
    return new DeltaWriteResultSerializer()
        .deserialize(DataFileSerialization.VERSION, row.getBinary(0));
  }
}
