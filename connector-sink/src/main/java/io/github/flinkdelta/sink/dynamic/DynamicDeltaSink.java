/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.internal.FlinkCompat;
import io.github.flinkdelta.sink.internal.SinkErrors;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;

/**
 * An exactly-once Flink sink that writes many Delta tables at once: each element of the stream is
 * turned by a {@link DynamicRecordGenerator} into records that name their tables, and tables are
 * created and evolved as records of new tables and shapes arrive. Build one with {@link
 * io.github.flinkdelta.sink.DeltaSink#dynamic}.
 *
 * <pre>
 *   elements ─▶ router (parallel)                 ─┬───────────────────────────▶ results writer
 *               generator → records; appending     │ keyed by table and key         │
 *               tables' rows into files, one budget └▶ upsert writer (parallel) ─────┤
 *                                                     one key index, one budget      ▼
 *                          committer ◀─ aggregator (parallelism 1): one committable per table
 *                          one version per table, in parallel          per checkpoint
 * </pre>
 *
 * <p>Each table commits as the single-table sink does, under one app id with transaction version =
 * checkpoint id, so every table is exactly once through failures, restarts and a new job id.
 *
 * @param <T> the type of the stream's elements
 */
@PublicEvolving
public final class DynamicDeltaSink<T> extends FlinkCompat.SinkBase<T>
    implements SupportsCommitter<DynamicCommittable>,
        SupportsPreWriteTopology<T>,
        SupportsPreCommitTopology<DynamicWriteResult, DynamicCommittable> {

  private static final long serialVersionUID = 1L;

  private final DynamicSinkConfig config;
  private final DynamicRecordGenerator<T> generator;
  private final KeySelector<T, ?> distribution;
  private final String uidPrefix;

  DynamicDeltaSink(
      DynamicSinkConfig config,
      DynamicRecordGenerator<T> generator,
      KeySelector<T, ?> distribution,
      String uidPrefix) {
    this.config = config;
    this.generator = generator;
    this.distribution = distribution;
    this.uidPrefix = uidPrefix;
  }

  /**
   * Runs the generator and writes every table before the sink's writer: the rows of appending
   * tables beside the input, those of tables with a primary key after a shuffle by table and key.
   * The sink's writer then receives the write results of both, in place of the elements.
   */
  @Internal
  @Override
  @SuppressWarnings("unchecked")
  public DataStream<T> addPreWriteTopology(DataStream<T> elements) {
    SingleOutputStreamOperator<DynamicRecord> routed =
        (distribution == null ? elements : elements.keyBy(distribution))
            .transform(
                "Delta dynamic router",
                DynamicRecordType.INSTANCE,
                new DynamicRecordRouter<>(config, generator));
    SingleOutputStreamOperator<RowData> upserts =
        routed
            .keyBy(new DynamicRecordKeys())
            .transform(
                "Delta dynamic upsert writer",
                WriteResultRows.TYPE,
                new DynamicUpsertWriter(config));
    if (uidPrefix != null) {
      routed.uid(uidPrefix + "-router");
      upserts.uid(uidPrefix + "-upsert-writer");
    }
    DataStream<RowData> results =
        routed.getSideOutput(DynamicRecordRouter.APPEND_RESULTS).union(upserts);
    return (DataStream<T>) (DataStream<?>) results;
  }

  /**
   * The sink's tables, for a coordinator that prepares tables before their records arrive (Flink
   * CDC's metadata applier).
   */
  @Internal
  public DynamicTables tables() {
    return new DynamicTables(config);
  }

  @Internal
  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    return new DynamicResultsWriter<>();
  }

  @Internal
  @Override
  public Committer<DynamicCommittable> createCommitter(CommitterInitContext context) {
    // Every committable goes to subtask 0 (see addPreCommitTopology); only it reports commits.
    boolean receivesCommittables = context.getTaskInfo().getIndexOfThisSubtask() == 0;
    return new DynamicCommitter(
        config,
        context.getRestoredCheckpointId(),
        new DynamicCommitterMetrics(
            receivesCommittables ? context.metricGroup() : new UnregisteredMetricsGroup()));
  }

  @Internal
  @Override
  public SimpleVersionedSerializer<DynamicCommittable> getCommittableSerializer() {
    return new DynamicSerializers.Committables();
  }

  @Internal
  @Override
  public SimpleVersionedSerializer<DynamicWriteResult> getWriteResultSerializer() {
    return new DynamicSerializers.WriteResults();
  }

  @Internal
  @Override
  public DataStream<CommittableMessage<DynamicCommittable>> addPreCommitTopology(
      DataStream<CommittableMessage<DynamicWriteResult>> writeResults) {
    if (writeResults
        .getExecutionEnvironment()
        .getCheckpointConfig()
        .isUnalignedCheckpointsEnabled()) {
      // A barrier could overtake write results, which would then commit with the wrong checkpoint.
      throw new IllegalStateException(
          SinkErrors.unalignedCheckpoints("the tables of a dynamic sink"));
    }
    SingleOutputStreamOperator<CommittableMessage<DynamicCommittable>> aggregated =
        writeResults
            .global()
            .transform(
                "Delta dynamic aggregator",
                CommittableMessageTypeInfo.of(DynamicSerializers.Committables::new),
                new DynamicWriteResultAggregator(config))
            .setParallelism(1)
            .setMaxParallelism(1);
    if (uidPrefix != null) {
      aggregated.uid(uidPrefix + "-aggregator");
    }
    return aggregated.global();
  }
}
