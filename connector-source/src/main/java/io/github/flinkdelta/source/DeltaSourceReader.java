/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.core.read.WatermarkColumn;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.table.data.RowData;

/**
 * Reads its splits with one fetcher thread ({@link DeltaSplitReader}), which does every storage
 * read (a file's footer, its deletion vector, its row groups), while the task thread decodes the
 * rows in memory and emits them ({@link DeltaRowEmitter}): a checkpoint barrier never waits for
 * storage. Its state is each split it holds, at the position after the last row emitted; rows read
 * but not yet emitted are read again after a restore, so a restore emits every row once.
 *
 * <p>It asks the enumerator for a split when it holds fewer than {@link #SPLITS_AHEAD}, so that the
 * fetcher goes from one file to the next without waiting for the request's round trip. A read with
 * a {@link WatermarkColumn} is idle while it waits for splits of a continuous read, so that other
 * readers' watermarks go on.
 */
@Internal
final class DeltaSourceReader
    extends SingleThreadMultiplexSourceReaderBase<
        PositionedRow, RowData, DeltaSplit, DeltaSplitState> {

  /** Splits a reader holds before it stops asking for more: the one read and the next. */
  static final int SPLITS_AHEAD = 2;

  private final DeltaSourceConfig config;
  private final DeltaRowEmitter emitter;
  private boolean started;
  private boolean requested;
  private boolean noMoreSplits;
  private boolean idle;

  DeltaSourceReader(SourceReaderContext context, DeltaSourceConfig config) {
    this(context, config, new DeltaRowEmitter(config));
  }

  private DeltaSourceReader(
      SourceReaderContext context, DeltaSourceConfig config, DeltaRowEmitter emitter) {
    super(() -> new DeltaSplitReader(config), emitter, context.getConfiguration(), context);
    this.config = config;
    this.emitter = emitter;
  }

  /**
   * Asks for splits once registered: the splits a checkpoint restored come before {@code start},
   * and a request sent then would reach the enumerator before the reader is registered there, which
   * drops it.
   */
  @Override
  public void start() {
    started = true;
    requestIfShort();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
    if (config.limit() >= 0 && emitter.emitted() >= config.limit()) {
      return InputStatus.END_OF_INPUT;
    }
    boolean waiting = getNumberOfCurrentlyAssignedSplits() == 0;
    if (idle && !waiting) {
      output.markActive();
      idle = false;
    }
    emitter.pollingInto(output);
    InputStatus status = super.pollNext(output);
    if (status == InputStatus.NOTHING_AVAILABLE
        && waiting
        && config.watermark() != null
        && !config.bounded()
        && !idle) {
      output.markIdle();
      idle = true;
    }
    return status;
  }

  @Override
  public void addSplits(List<DeltaSplit> splits) {
    super.addSplits(splits);
    requested = false;
    requestIfShort();
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    super.notifyNoMoreSplits();
  }

  @Override
  protected void onSplitFinished(Map<String, DeltaSplitState> finished) {
    requestIfShort();
  }

  private void requestIfShort() {
    if (started
        && !requested
        && !noMoreSplits
        && getNumberOfCurrentlyAssignedSplits() < SPLITS_AHEAD) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  @Override
  protected DeltaSplitState initializedState(DeltaSplit split) {
    return new DeltaSplitState(split);
  }

  @Override
  protected DeltaSplit toSplitType(String splitId, DeltaSplitState state) {
    return state.toSplit();
  }
}
