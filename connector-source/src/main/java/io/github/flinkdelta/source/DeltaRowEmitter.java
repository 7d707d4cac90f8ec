/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.core.read.WatermarkColumn;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Emits the fetched rows on the task thread and moves each split's position past the row emitted,
 * so that a checkpoint taken between two rows restores every row once.
 *
 * <p>A read with a {@link WatermarkColumn} gets its splits oldest first: before a split's first row
 * the emitter emits a watermark just below the split's least timestamp (never one lower than it
 * emitted before), and each row carries the column's value as its timestamp. The watermarks go to
 * the reader's output, not the split's: a split's watermark would end with the split, and the
 * reader's watermark is what its splits' order makes true.
 */
@Internal
final class DeltaRowEmitter implements RecordEmitter<PositionedRow, RowData, DeltaSplitState> {

  private final boolean watermarks;

  /** The position of the watermark column in the rows read, or -1 when it is not read. */
  private final int timestampIndex;

  private final int timestampPrecision;
  private long watermark = Long.MIN_VALUE;
  private long emitted;
  private ReaderOutput<RowData> readerOutput;

  DeltaRowEmitter(DeltaSourceConfig config) {
    WatermarkColumn column = config.watermark();
    this.watermarks = column != null;
    this.timestampIndex = column == null ? -1 : config.columns().names().indexOf(column.name());
    this.timestampPrecision =
        timestampIndex < 0
            ? 0
            : LogicalTypeChecks.getPrecision(config.columns().rowType().getTypeAt(timestampIndex));
  }

  @Override
  public void emitRecord(
      PositionedRow record, SourceOutput<RowData> output, DeltaSplitState split) {
    if (split.start() && watermarks) {
      long least = split.split().file().minTimestamp();
      if (least != WatermarkColumn.UNKNOWN && least - 1 > watermark) {
        watermark = least - 1;
        readerOutput.emitWatermark(new Watermark(watermark));
      }
    }
    RowData row = record.row();
    if (timestampIndex >= 0 && !row.isNullAt(timestampIndex)) {
      output.collect(row, row.getTimestamp(timestampIndex, timestampPrecision).getMillisecond());
    } else {
      output.collect(row);
    }
    split.emitted(record.position());
    emitted++;
  }

  /** The reader's output of the poll under way, which takes the watermarks. */
  void pollingInto(ReaderOutput<RowData> output) {
    this.readerOutput = output;
  }

  /** Rows emitted by this reader since it started. */
  long emitted() {
    return emitted;
  }
}
