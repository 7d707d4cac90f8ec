package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.StaleIndex;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
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
 * <p>Exactly once: the index in a checkpoint points into files that the same checkpoint's
 * committable commits (or that are in the table already); a restore from an earlier checkpoint
 * restores the index of that checkpoint with it. When the operator starts without an index (the
 * first start of a sink, on a table that may hold rows), it reads the keys of the table's live rows
 * first, each subtask keeping those of its key groups.
 *
 * <p>Another writer that moves or deletes rows the index points at makes those entries stale. The
 * committer settles the checkpoint's deletes by key and leaves a {@link StaleIndex} mark in the
 * table; the job then restarts, and on restore each subtask that finds the mark newer than its
 * index waits until the table holds the restored checkpoint's commits and reads the table's keys
 * anew into a new, empty generation of the index.
 */
final class UpsertWriterOperator extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  private final DeltaSinkConfig config;

  /** Where the index's entries live, as the operator state records it. */
  private static final long IN_BACKEND = 0;

  private static final long HEAP = 1;

  private transient PartitionedDataWriter files;
  private transient UpsertKeyIndex index;
  private transient ListState<Long> indexBuilt;
  private transient long indexVersion;

  /**
   * Generation of the index, checkpoint as of which it was last rebuilt, last checkpoint with a
   * result.
   */
  private transient ListState<long[]> rebuilds;

  private transient long generation;
  private transient long rebuiltAt;
  private transient long lastResult;
  private transient FileDeletes deletes;
  private transient DeltaWriteResultSerializer serializer;
  private transient DeltaSinkWriterMetrics metrics;
  private transient Counter deleted;
  private transient UpsertCompaction compaction;

  UpsertWriterOperator(DeltaSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    indexBuilt =
        context
            .getOperatorStateStore()
            .getUnionListState(
                new ListStateDescriptor<>("delta-upsert-index-version", LongSerializer.INSTANCE));
    rebuilds =
        context
            .getOperatorStateStore()
            .getUnionListState(
                new ListStateDescriptor<>(
                    "delta-upsert-index-rebuilds", LongPrimitiveArraySerializer.INSTANCE));
    deletes = new FileDeletes();
    indexVersion = -1;
    for (Long version : indexBuilt.get()) {
      indexVersion = Math.max(indexVersion, version);
    }
    rebuiltAt = -1;
    lastResult = -1;
    boolean restoredOnHeap = false;
    for (long[] rebuild : rebuilds.get()) {
      generation = Math.max(generation, rebuild[0]);
      rebuiltAt = Math.max(rebuiltAt, rebuild[1]);
      lastResult = Math.max(lastResult, rebuild[2]);
      // State of connector versions before the heap index has three fields.
      restoredOnHeap |= rebuild.length > 3 && rebuild[3] == HEAP;
    }
    index =
        loader()
            .open(
                getKeyedStateBackend(),
                context.getRawKeyedStateInputs(),
                indexVersion >= 0,
                restoredOnHeap,
                generation);
    if (indexVersion < 0) {
      buildIndex();
    } else if (context.getRestoredCheckpointId().isPresent()) {
      rebuildIfStale(context.getRestoredCheckpointId().getAsLong());
    }
  }

  private int maxParallelism() {
    return getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
  }

  private KeyGroupRange keyGroupRange() {
    return KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
        maxParallelism(),
        getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
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
   * Rebuilds the index when the table's {@link StaleIndex} mark is newer than it: once the table
   * holds every commit of the restored checkpoint (so that no restored row is missed), the keys of
   * the table go into a new generation.
   */
  private void rebuildIfStale(long restoredCheckpoint) throws InterruptedException {
    if (!loader().awaitStale(rebuiltAt, lastResult)) {
      return;
    }
    generation++;
    index.startGeneration(generation);
    rebuiltAt = restoredCheckpoint;
    buildIndex();
  }

  private void buildIndex() {
    indexVersion = loader().readTable(index, deletes);
  }

  private KeyIndexLoader loader() {
    return new KeyIndexLoader(
        config,
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        keyGroupRange(),
        maxParallelism());
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
    MetricGroup delta = DeltaSinkWriterMetrics.deltaGroup(getMetricGroup(), config.tableName());
    deleted = delta.counter("numRowsDeleted");
    if (config.compaction() != null) {
      compaction =
          new UpsertCompaction(
              config,
              getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
              getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
              getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks(),
              delta,
              System::nanoTime);
    }
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
          deletes.addDeletedKey(key);
          index.remove(key);
          deleted.inc();
        }
      }
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    if (handOver()) {
      lastResult = checkpointId;
    }
  }

  @Override
  public void endInput() throws Exception {
    handOver();
    // Nothing may follow the last hand-over: the sink's writer has seen the end of its input too.
    // A compaction still running is dropped, its files left for a vacuum.
    if (compaction != null) {
      compaction.close();
      compaction = null;
    }
  }

  /**
   * Completes the open files and sends them, with the deletes and a ready compaction, on to the
   * sink's writer.
   *
   * @return whether there was anything to send
   */
  private boolean handOver() throws IOException {
    DataFiles completed;
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      completed = files.flush();
    }
    metrics.flushed((System.nanoTime() - started) / 1_000_000);
    metrics.filesCompleted(completed);
    Optional<UpsertCompaction.Rewrite> rewrite =
        compaction == null ? Optional.empty() : compaction.takeReady();
    if (rewrite.isPresent()) {
      completed = DataFiles.concat(List.of(completed, moveIndex(rewrite.get())));
    }
    boolean any = !completed.isEmpty() || !deletes.isEmpty();
    if (any) {
      byte[] result = serializer.serialize(new DeltaWriteResult(completed, deletes));
      output.collect(new StreamRecord<>(WriteResultRows.of(result)));
      deletes = new FileDeletes();
    }
    if (compaction != null) {
      compaction.checkpointed();
    }
    return any;
  }

  /**
   * Moves the index entries of the rows {@code rewrite} moved to their new places, in the
   * checkpoint whose commit moves the rows. A row whose key no longer points at the place it was
   * read from (the key changed or went since the compaction read it) is deleted in its new file
   * instead, and the checkpoint's deletes in the rewritten files are dropped, since the rewritten
   * files go. A rewritten file none of whose moved rows is still live is left to the table's own
   * deletes, which remove it once no row of it is left (perhaps already): removing it again as
   * compacted could not land once it is gone.
   *
   * @return the rewrite's files, to commit with the checkpoint's
   */
  private DataFiles moveIndex(UpsertCompaction.Rewrite rewrite) throws IOException {
    long[] dead = {0};
    Set<Long> movedFrom = new HashSet<>();
    Set<Long> stillLive = new HashSet<>();
    rewrite
        .moved()
        .forEach(
            (key, fromFile, fromPosition, to) -> {
              movedFrom.add(fromFile);
              try {
                RowLocation current = index.get(key);
                if (current != null
                    && current.fileId() == fromFile
                    && current.position() == fromPosition) {
                  index.put(key, to);
                  stillLive.add(fromFile);
                } else {
                  deletes.add(to.fileId(), to.position());
                  dead[0]++;
                }
              } catch (IOException e) {
                throw new UncheckedIOException("Cannot move the key index", e);
              }
            });
    DataFiles written = rewrite.prepared().writtenFiles();
    List<Long> outputs = new ArrayList<>();
    for (DataFile file : written.toList()) {
      outputs.add(FileIds.of(file.path()));
    }
    List<Long> inputs = new ArrayList<>();
    for (long input : rewrite.prepared().removedIds()) {
      if (stillLive.contains(input) || !movedFrom.contains(input)) {
        inputs.add(input);
      }
    }
    deletes.addRewrite(inputs, outputs);
    LOG.info(
        "Delta upsert writer {} of {} hands on a compaction of {} files into {}: {} rows moved, {}"
            + " of them changed since it read them",
        getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
        config.tableName(),
        rewrite.prepared().inputFiles(),
        outputs.size(),
        rewrite.moved().size(),
        dead[0]);
    return written;
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    indexBuilt.update(List.of(indexVersion));
    rebuilds.update(
        List.of(
            new long[] {
              generation, rebuiltAt, lastResult, index instanceof HeapKeyIndex ? HEAP : IN_BACKEND
            }));
    index.snapshotState(context);
  }

  @Override
  public void close() throws Exception {
    try {
      if (compaction != null) {
        compaction.close();
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
