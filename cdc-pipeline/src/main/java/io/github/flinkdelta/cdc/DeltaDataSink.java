/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.sink.dynamic.DynamicDeltaSink;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.sink.DataSink;
import org.apache.flink.cdc.common.sink.EventSinkProvider;
import org.apache.flink.cdc.common.sink.FlinkSinkProvider;
import org.apache.flink.cdc.common.sink.MetadataApplier;

/**
 * The {@code delta} pipeline sink: the dynamic sink with Flink CDC's events as its elements, and
 * the metadata applier that prepares its tables.
 */
final class DeltaDataSink implements DataSink {

  private final FlinkCdcEvents events;
  private final DynamicDeltaSink<Event> tables;
  private final String uid;
  private final String schemaOperatorUid;

  DeltaDataSink(
      FlinkCdcEvents events, DynamicDeltaSink<Event> tables, String uid, String schemaOperatorUid) {
    this.events = events;
    this.tables = tables;
    this.uid = uid;
    this.schemaOperatorUid = schemaOperatorUid;
  }

  @Override
  public EventSinkProvider getEventSinkProvider() {
    return FlinkSinkProvider.of(new DeltaEventSink(tables, uid, schemaOperatorUid));
  }

  @Override
  public MetadataApplier getMetadataApplier() {
    return new DeltaMetadataApplier(events, tables.tables());
  }
}
