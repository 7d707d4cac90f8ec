/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
 * table's truncation is handed on with the checkpoint's results, and the table's records after it
 * are held for the next checkpoint ({@link HeldRecords}). At each checkpoint barrier the appending
 * tables' write results leave through {@link #APPEND_RESULTS}.
 */
final class DynamicRecordRouter<T> extends AbstractStreamOperator<DynamicRecord>
    implements OneInputStreamOperator<T, DynamicRecord>, BoundedOneInput {

  private static final long serialVersionUID = 1L;

  /** The appending tables' write results, as rows that carry them serialized. */
  static final OutputTag<RowData> APPEND_RESULTS =
      new OutputTag<>("delta-dynamic-append-results", WriteResultRows.TYPE);

  private final DynamicSinkConfig config;
  private final DynamicRecordGenerator<T> generator;

  private transient DynamicTableResolver resolver;
  private transient AppendTables appends;
  private transient DeadLetters deadLetters;
  private transient HeldRecords held;
  private transient Output out;

  DynamicRecordRouter(DynamicSinkConfig config, DynamicRecordGenerator<T> generator) {
    this.config = config;
    this.generator = generator;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    held = new HeldRecords(context.getOperatorStateStore(), context.isRestored());
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    held.snapshot();
  }

  @Override
  public void open() throws Exception {
    super.open();
    resolver = new DynamicTableResolver(config);
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
    getMetricGroup().addGroup("delta").gauge("recordsHeldForTruncations", held::size);
  }

  @Override
  public void processElement(StreamRecord<T> element) throws Exception {
    releaseHeld();
    try (var loader = ConnectorClassLoader.enter()) {
      generator.generate(element.getValue(), out);
    }
  }

  /** Sends on the records held after truncations, once the checkpoint that truncates has begun. */
  private void releaseHeld() throws IOException {
    for (DynamicRecord record : held.takeReleased()) {
      out.route(record);
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
        // The table is created and evolved here, once per shape, before its records go to the
        // upsert writers: they then find it as it must be, and do not race each other to create
        // it (Unity Catalog OSS 0.6 can register one name twice when creations race).
        try (var loader = ConnectorClassLoader.enter()) {
          resolver.resolve(record.table());
        }
        output.collect(reused.replace(record));
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

    @Override
    public void apply(TableChange change) throws IOException {
      lastAccepted = null;
      if (appends.apply(change)) {
        held.truncate(change.table());
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
   * Hands on the appending tables' files and the truncations since the last barrier; a table's
   * truncation is committed after its files of the same checkpoint, from every subtask.
   */
  private void handOver() throws IOException {
    DynamicSerializers.WriteResults serializer = new DynamicSerializers.WriteResults();
    List<DynamicWriteResult> results = new ArrayList<>(appends.prepareCommit());
    for (String table : held.barrier()) {
      results.add(DynamicWriteResult.truncation(table));
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
