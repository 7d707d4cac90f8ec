/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.committer.DeltaCommittableSerializer;
import io.github.flinkdelta.sink.committer.DeltaCommitter;
import io.github.flinkdelta.sink.committer.DeltaCommitterMetrics;
import io.github.flinkdelta.sink.committer.DeltaWriteResultAggregator;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.FlinkCompat;
import io.github.flinkdelta.sink.internal.SinkErrors;
import io.github.flinkdelta.sink.upsert.PrimaryKeySelector;
import io.github.flinkdelta.sink.upsert.UpsertResultsWriter;
import io.github.flinkdelta.sink.upsert.UpsertWriterOperator;
import io.github.flinkdelta.sink.writer.DeltaSinkWriter;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.DeltaWriteResultSerializer;
import io.github.flinkdelta.sink.writer.PartitionKeySelector;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.time.Clock;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;

/**
 * An exactly-once Flink sink for Delta Lake tables. Build one with {@link #builder()}.
 *
 * <pre>
 *   rows ─▶ DeltaSinkWriter (parallel) ─▶ aggregator (parallelism 1) ─▶ DeltaCommitter
 *           Parquet files per partition    one committable per          one Delta version per
 *           completed at each checkpoint   checkpoint, app id in state  completed checkpoint
 * </pre>
 *
 * <p>Rows become visible when the checkpoint that holds them completes. Each commit carries the
 * transaction (app id, checkpoint id), so a commit replayed after a failure is recognised and
 * skipped: no row is committed twice, and no completed checkpoint's rows are lost.
 */
@PublicEvolving
public final class DeltaSink extends FlinkCompat.SinkBase<RowData>
    implements SupportsCommitter<DeltaCommittable>,
        SupportsPreWriteTopology<RowData>,
        SupportsPreCommitTopology<DeltaWriteResult, DeltaCommittable> {

  private static final long serialVersionUID = 1L;

  private final DeltaSinkConfig config;
  private final String uidPrefix;

  DeltaSink(DeltaSinkConfig config, String uidPrefix) {
    this.config = config;
    this.uidPrefix = uidPrefix;
  }

  /** Starts building a sink. */
  public static DeltaSinkBuilder builder() {
    return new DeltaSinkBuilder();
  }

  /**
   * Starts building a sink that writes many tables at once, each record naming its table through
   * {@code generator}; tables are created and evolved on the fly (see {@link DynamicDeltaSink}).
   */
  public static <T> DynamicDeltaSinkBuilder<T> dynamic(DynamicRecordGenerator<T> generator) {
    return new DynamicDeltaSinkBuilder<>(generator);
  }

  @Internal
  @Override
  public DataStream<RowData> addPreWriteTopology(DataStream<RowData> rows) {
    if (config.upserts()) {
      // Each key has one owning writer, at any parallelism, and its index entry in keyed state.
      SingleOutputStreamOperator<RowData> written =
          rows.keyBy(new PrimaryKeySelector(config.primaryKey()))
              .transform(
                  "Delta upsert writer", WriteResultRows.TYPE, new UpsertWriterOperator(config))
              .setDescription("Delta upsert writer of " + config.tableName());
      if (uidPrefix != null) {
        written.uid(uidPrefix + "-upsert-writer");
      }
      return written;
    }
    if (config.distribution() == DeltaSinkOptions.Distribution.HASH
        && config.layout().isPartitioned()) {
      return rows.keyBy(new PartitionKeySelector(config.layout().partitionColumns()));
    }
    return rows;
  }

  @Internal
  @Override
  public SinkWriter<RowData> createWriter(WriterInitContext context) {
    if (config.upserts()) {
      return new UpsertResultsWriter();
    }
    return new DeltaSinkWriter(
        config, context.getTaskInfo().getIndexOfThisSubtask(), context.metricGroup());
  }

  @Internal
  @Override
  public Committer<DeltaCommittable> createCommitter(CommitterInitContext context)
      throws IOException {
    // Every committable goes to subtask 0 (see addPreCommitTopology); only it reports commits.
    boolean receivesCommittables = context.getTaskInfo().getIndexOfThisSubtask() == 0;
    MetricGroup metrics =
        receivesCommittables ? context.metricGroup() : new UnregisteredMetricsGroup();
    return new DeltaCommitter(
        config,
        context.getRestoredCheckpointId(),
        new DeltaCommitterMetrics(metrics, config.tableName(), Clock.systemUTC()),
        receivesCommittables);
  }

  @Internal
  @Override
  public SimpleVersionedSerializer<DeltaCommittable> getCommittableSerializer() {
    return new DeltaCommittableSerializer();
  }

  @Internal
  @Override
  public SimpleVersionedSerializer<DeltaWriteResult> getWriteResultSerializer() {
    return new DeltaWriteResultSerializer();
  }

  @Internal
  @Override
  public DataStream<CommittableMessage<DeltaCommittable>> addPreCommitTopology(
      DataStream<CommittableMessage<DeltaWriteResult>> writeResults) {
    if (writeResults
        .getExecutionEnvironment()
        .getCheckpointConfig()
        .isUnalignedCheckpointsEnabled()) {
      // Under unaligned checkpoints a checkpoint's barrier may overtake the write results the
      // writers sent before it, and the aggregator would commit them with the wrong checkpoint.
      throw new IllegalStateException(SinkErrors.unalignedCheckpoints(config.tableName()));
    }
    SingleOutputStreamOperator<CommittableMessage<DeltaCommittable>> aggregated =
        writeResults
            .global()
            .transform(
                "Delta aggregator",
                CommittableMessageTypeInfo.of(DeltaCommittableSerializer::new),
                new DeltaWriteResultAggregator(config))
            .setParallelism(1)
            .setMaxParallelism(1)
            // The name goes into metric scopes, which Flink cuts at 80 characters; a table's path
            // would push it past that, so the table is named in the description only.
            .setDescription("Delta aggregator of " + config.tableName());
    if (uidPrefix != null) {
      aggregated.uid(uidPrefix + "-aggregator");
    }
    // The committer runs at the sink's parallelism: route every committable to one subtask.
    return aggregated.global();
  }
}
