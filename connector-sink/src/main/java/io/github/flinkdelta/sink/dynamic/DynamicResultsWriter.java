/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.sink.internal.DataFileSerialization;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.table.data.RowData;

/**
 * The sink writer of a dynamic sink. The rows were written before it, by {@link
 * DynamicRecordRouter} (appending tables) and {@link DynamicUpsertWriter} (tables with a primary
 * key); this writer receives their write results, one row each that carries it serialized, and
 * hands them on at the checkpoint they belong to. Its input is declared as the sink's element type,
 * which the sink's topology before it replaces with those rows.
 */
final class DynamicResultsWriter<T> implements CommittingSinkWriter<T, DynamicWriteResult> {

  private final DynamicSerializers.WriteResults serializer = new DynamicSerializers.WriteResults();
  private final List<DynamicWriteResult> results = new ArrayList<>();

  @Override
  public void write(T element, Context context) throws IOException {
    RowData row = (RowData) element;
    results.add(serializer.deserialize(DataFileSerialization.VERSION, row.getBinary(0)));
  }

  @Override
  public void flush(boolean endOfInput) {
    // The operators before completed their files before they emitted the results.
  }

  @Override
  public Collection<DynamicWriteResult> prepareCommit() {
    List<DynamicWriteResult> handedOn = List.copyOf(results);
    results.clear();
    return handedOn;
  }

  @Override
  public void close() {}
}
