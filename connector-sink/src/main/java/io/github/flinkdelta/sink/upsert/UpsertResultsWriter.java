/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.table.data.RowData;

/**
 * The sink writer of an upsert sink. The rows were written by {@link UpsertWriterOperator} before
 * it; this writer receives that operator's write results, one row each, and hands them on at the
 * checkpoint they belong to.
 */
@Internal
public final class UpsertResultsWriter implements CommittingSinkWriter<RowData, DeltaWriteResult> {

  private final List<DeltaWriteResult> results = new ArrayList<>();

  @Override
  public void write(RowData row, Context context) throws IOException {
    results.add(UpsertWriterOperator.resultOf(row));
  }

  @Override
  public void flush(boolean endOfInput) {
    // The operator completed its files before it emitted their results.
  }

  @Override
  public Collection<DeltaWriteResult> prepareCommit() {
    List<DeltaWriteResult> handedOn = List.copyOf(results);
    results.clear();
    return handedOn;
  }

  @Override
  public void close() {}
}
