/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.sink.dynamic.DynamicDeltaSink;
import io.github.flinkdelta.sink.internal.FlinkCompat;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.FlushEvent;
import org.apache.flink.cdc.runtime.typeutils.EventTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.WithPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The Sink V2 sink Flink CDC's composer puts after its schema operator, as the composer of Flink
 * CDC 3.2 takes sinks: the dynamic sink writes and commits every table in its pre-write topology,
 * and what reaches this sink's own writer, which Flink CDC wraps to answer its schema coordinator,
 * is the coordinator's flush events alone.
 *
 * <pre>
 *   events ─▶ latest schemas ─┬─▶ dynamic sink: router ─▶ upsert writers ─▶ aggregator ─▶ committer
 *                             └─▶ flush events ─▶ Flink CDC's writer operator (answers the coordinator)
 * </pre>
 *
 * <p>{@link LatestSchemas} gives the sink each table's schema from the coordinator before the
 * table's first event of each run, as Flink CDC gives its own writers.
 *
 * <p>A flush is answered once the dynamic sink's router, in the same task and before it, has taken
 * every event ahead of the flush; no files need be written for it. What the coordinator applies
 * next cannot make rows of the old shape unreadable: an added column or a widened type is evolved
 * by the writers at the first row of the new shape, and a renamed or dropped column, which the
 * {@link DeltaMetadataApplier} changes at once, leaves rows still on their way to be written by
 * their columns' former names.
 */
@SuppressWarnings("deprecation") // Flink CDC 3.2's composer asks for WithPreWriteTopology.
final class DeltaEventSink extends FlinkCompat.SinkBase<Event>
    implements WithPreWriteTopology<Event> {

  private static final long serialVersionUID = 1L;

  private final DynamicDeltaSink<Event> tables;
  private final String uid;
  private final String schemaOperatorUid;

  DeltaEventSink(DynamicDeltaSink<Event> tables, String uid, String schemaOperatorUid) {
    this.tables = tables;
    this.uid = uid;
    this.schemaOperatorUid = schemaOperatorUid;
  }

  @Override
  public DataStream<Event> addPreWriteTopology(DataStream<Event> events) {
    DataStream<Event> current =
        events
            .transform(
                "Delta latest schemas", new EventTypeInfo(), new LatestSchemas(schemaOperatorUid))
            .uid(uid + "-latest-schemas");
    current.sinkTo(tables).name("Delta tables").uid(uid);
    return current.filter(new FlushEvents()).name("Delta flush events").uid(uid + "-flushes");
  }

  @Override
  public SinkWriter<Event> createWriter(WriterInitContext context) {
    return new FlushAnswers();
  }

  /** Passes Flink CDC's flush events alone. */
  private static final class FlushEvents implements FilterFunction<Event> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean filter(Event event) {
      return event instanceof FlushEvent;
    }
  }

  /**
   * The writer Flink CDC's writer operator wraps: it sees flush events only, which the operator
   * answers itself, after calling {@link #flush}.
   */
  private static final class FlushAnswers implements SinkWriter<Event> {

    @Override
    public void write(Event event, Context context) {
      throw new IllegalStateException(
          "The Delta pipeline sink's writer received "
              + event
              + ": its tables' events are written before it, by the dynamic sink");
    }

    @Override
    public void flush(boolean endOfInput) {
      // The dynamic sink before this writer has taken every event ahead of the flush.
    }

    @Override
    public void close() {}
  }
}
