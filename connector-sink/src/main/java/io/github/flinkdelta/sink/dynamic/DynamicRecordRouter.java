/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.OutputTag;

/**
 * The first operator of a dynamic sink, beside its input: runs the user's generator on each
 * element, writes the records of appending tables into their files here ({@link AppendTables}), and
 * sends the records of tables with a primary key on to the upsert writers, keyed by table and key.
 * Column renames and drops are applied here, in order with the records that surround them; a
 * table's truncation or drop is handed on with the checkpoint's results, and what follows it of the
 * table is held ({@link HeldRecords}): after a truncation for the next checkpoint, after a drop
 * until the committer has dropped the table. At each checkpoint barrier the appending tables' write
 * results leave through {@link #APPEND_RESULTS}.
 *
 * <p>The records of a table with a primary key that follow its drop go on to the upsert writers in
 * a shape of their own, which carries the dropped table's id ({@link #AFTER_DROP_OF}): a writer
 * looks the table up again for it, finds the new table and starts its key index afresh.
 */
final class DynamicRecordRouter<T> extends AbstractStreamOperator<DynamicRecord>
    implements OneInputStreamOperator<T, DynamicRecord>, BoundedOneInput {

  private static final long serialVersionUID = 1L;

  /** The appending tables' write results, as rows that carry them serialized. */
  static final OutputTag<RowData> APPEND_RESULTS =
      new OutputTag<>("delta-dynamic-append-results", WriteResultRows.TYPE);

  /**
   * The property of a record's shape that says the id of the table of its name that was dropped
   * before it; the table is not created with it.
   */
  static final String AFTER_DROP_OF = "flink-delta.dynamic.after-drop-of";

  /** How often a drop handed on is looked for in the table, while records wait for it. */
  private static final long DROP_CHECK_INTERVAL_NANOS = 500_000_000L;

  private final DynamicSinkConfig config;
  private final DynamicRecordGenerator<T> generator;

  private transient DynamicTableResolver resolver;
  private transient AppendTables appends;
  private transient DeadLetters deadLetters;
  private transient HeldRecords held;
  private transient TableDrops drops;
  private transient long nextDropCheck;

  /** Per table dropped in this run, the id of the table dropped last. */
  private transient Map<String, String> droppedIds;

  /** The shapes records of {@link #droppedIds} tables go on in, by the shapes they came in. */
  private transient Map<DynamicTable, DynamicTable> afterDropShapes;

  private transient Output out;

  /** What a {@link DynamicRecordGenerator.Checkpointed} generator holds; null for others. */
  private transient ListState<byte[]> generatorState;

  DynamicRecordRouter(DynamicSinkConfig config, DynamicRecordGenerator<T> generator) {
    this.config = config;
    this.generator = generator;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    held = new HeldRecords(context.getOperatorStateStore(), context.isRestored());
    if (generator instanceof DynamicRecordGenerator.Checkpointed checkpointed) {
      // Union state: after a rescale every subtask may meet every table.
      generatorState =
          context
              .getOperatorStateStore()
              .getUnionListState(
                  new ListStateDescriptor<>(
                      "delta-dynamic-generator",
                      PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
      if (context.isRestored()) {
        List<byte[]> snapshots = new ArrayList<>();
        generatorState.get().forEach(snapshots::add);
        try (var loader = ConnectorClassLoader.enter()) {
          checkpointed.restore(snapshots);
        }
      }
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    held.snapshot();
    if (generatorState != null) {
      try (var loader = ConnectorClassLoader.enter()) {
        generatorState.update(
            List.of(((DynamicRecordGenerator.Checkpointed) generator).snapshot()));
      }
    }
  }

  @Override
  public void open() throws Exception {
    super.open();
    resolver = new DynamicTableResolver(config);
    drops = new TableDrops(config);
    droppedIds = new HashMap<>();
    afterDropShapes = new HashMap<>();
    appends =
        new AppendTables(
            config,
            resolver,
            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
            getMetricGroup().getIOMetricGroup().getNumRecordsOutCounter(),
            getMetricGroup());
    Configuration options = config.sinkOptions();
    if (options.get(DynamicSinkOptions.REFUSED_RECORDS) == RefusedRecordPolicy.DEAD_LETTER) {
      deadLetters =
          new DeadLetters(
              options.get(DynamicSinkOptions.DEAD_LETTER_TABLE),
              options.get(DynamicSinkOptions.MAX_CACHED_TABLES),
              getMetricGroup().addGroup("delta").counter("numRecordsDeadLettered"));
      // The dead-letter table is found or created now: a problem with it shows at start, not at
      // the first refused record, days later.
      try (var loader = ConnectorClassLoader.enter()) {
        resolver.resolve(deadLetters.table());
      }
    }
    out = new Output();
    getMetricGroup().addGroup("delta").gauge("recordsHeldForTableEvents", held::size);
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    releaseHeld();
    try (var loader = ConnectorClassLoader.enter()) {
      generator.generate(element.getValue(), out);
    }
  }

  /**
   * Sends on what was held after truncations once the checkpoint that truncates has begun, and
   * after drops once the table is gone.
   */
  private void releaseHeld() throws IOException {
    if (held.awaitsDrops() && System.nanoTime() - nextDropCheck >= 0) {
      nextDropCheck = System.nanoTime() + DROP_CHECK_INTERVAL_NANOS;
      for (HeldRecords.TableEvent drop : held.releaseDropped(drops::stillHolds)) {
        appends.forget(drop.table());
        droppedIds.put(drop.table(), drop.dropsTableId());
        afterDropShapes.keySet().removeIf(shape -> shape.name().equals(drop.table()));
      }
    }
    for (Object item : held.takeReleased()) {
      if (item instanceof DynamicRecord record) {
        out.collect(record);
      } else {
        out.apply((TableChange) item);
      }
    }
  }

  /** Where the generator hands on records and changes. */
  private final class Output implements DynamicRecordGenerator.Output {

    private final StreamRecord<DynamicRecord> reused = new StreamRecord<>(null);
    private DynamicTable lastAccepted;

    @Override
    public void collect(DynamicRecord record) throws IOException {
      if (!held.hold(record)) {
        route(record);
      }
    }

    void route(DynamicRecord record) throws IOException {
      String refusal = deadLetters == null ? null : refusalOf(record.table());
      if (refusal != null) {
        appends.write(deadLetters.letterOf(record, refusal));
      } else if (record.table().upserts()) {
        DynamicTable shape = droppedIds.isEmpty() ? record.table() : afterDrop(record.table());
        // The table is created and evolved here, once per shape, before its records go to the
        // upsert writers: they then find it as it must be, and do not race each other to create
        // it (Unity Catalog OSS 0.6 can register one name twice when creations race).
        try (var loader = ConnectorClassLoader.enter()) {
          resolver.resolve(shape);
        }
        output.collect(
            reused.replace(
                shape == record.table() ? record : new DynamicRecord(shape, record.row())));
      } else {
        appends.write(record);
      }
    }

    /**
     * Why the table refuses records of {@code shape}, resolving it first; null when it takes them.
     */
    private String refusalOf(DynamicTable shape) {
      if (shape == lastAccepted) {
        return null;
      }
      String known = deadLetters.refusalOf(shape);
      if (known != null) {
        return known;
      }
      try (var loader = ConnectorClassLoader.enter()) {
        resolver.resolve(shape);
        lastAccepted = shape;
        return null;
      } catch (RuntimeException e) {
        String refusal = deadLetters.refused(shape, e);
        if (refusal == null) {
          throw e;
        }
        return refusal;
      }
    }

    /** {@code shape}, marked with the id of the table of its name dropped before, if any. */
    private DynamicTable afterDrop(DynamicTable shape) {
      String dropped = droppedIds.get(shape.name());
      if (dropped == null) {
        return shape;
      }
      return afterDropShapes.computeIfAbsent(
          shape,
          s -> {
            Map<String, String> properties = new HashMap<>(s.properties());
            properties.put(AFTER_DROP_OF, dropped);
            return s.withProperties(properties);
          });
    }

    @Override
    public void apply(TableChange change) throws IOException {
      lastAccepted = null;
      if (held.holds(change.table())) {
        held.hold(change);
        return;
      }
      HeldRecords.TableEvent event = appends.apply(change);
      if (event != null) {
        held.add(event);
      }
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    releaseHeld();
    handOver();
  }

  @Override
  public void endInput() throws Exception {
    releaseHeld();
    held.checkNoneHeldAtEnd();
    handOver();
  }

  /**
   * Hands on the appending tables' files and the truncations and drops since the last barrier; a
   * table's truncation or drop is committed after its files of the same checkpoint, from every
   * subtask.
   */
  private void handOver() throws IOException {
    DynamicSerializers.WriteResults serializer = new DynamicSerializers.WriteResults();
    List<DynamicWriteResult> results = new ArrayList<>(appends.prepareCommit());
    for (HeldRecords.TableEvent event : held.barrier()) {
      results.add(DynamicWriteResult.of(event));
    }
    for (DynamicWriteResult result : results) {
      output.collect(
          APPEND_RESULTS, new StreamRecord<>(WriteResultRows.of(serializer.serialize(result))));
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (appends != null) {
        appends.close();
      }
    } finally {
      super.close();
    }
  }
}
