package io.github.flinkdelta.source;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.read.FileRows;
import io.github.flinkdelta.core.read.RowFilter;
import io.github.flinkdelta.core.read.WatermarkColumn;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads its splits one after another, in the order they came, on the task's thread: each split's
 * live rows in file order. Its state is the split being read, at the position of the next row, and
 * the splits queued behind it; rows before that position were emitted before the checkpoint, and
 * none after it, so a restore emits every row once.
 *
 * <p>A read with a {@link WatermarkColumn} gets its splits oldest first and emits, before a split's
 * rows, a watermark just below the split's least timestamp (never one lower than it emitted
 * before); the rows carry the column's value as their timestamp when it is read. While it waits for
 * splits of a continuous read it is idle, so that other readers' watermarks go on.
 */
@Internal
final class DeltaSourceReader implements SourceReader<RowData, DeltaSplit> {

  /** Rows emitted per call, so that checkpoints and other mails are not kept waiting. */
  private static final int ROWS_PER_POLL = 256;

  private final SourceReaderContext context;
  private final DeltaSourceConfig config;
  private final Deque<DeltaSplit> splits = new ArrayDeque<>();

  private final RowFilter filter;
  private final Counter recordsIn;
  private long emitted;

  /** The position of the watermark column in the rows read, or -1 when it is not read. */
  private final int timestampIndex;

  private final int timestampPrecision;
  private long watermark = Long.MIN_VALUE;
  private boolean idle;

  private Configuration conf;
  private Engine engine;
  private DeltaSplit current;
  private FileRows rows;
  private long next;
  private boolean noMoreSplits;
  private boolean requested;
  private CompletableFuture<Void> available = new CompletableFuture<>();

  DeltaSourceReader(SourceReaderContext context, DeltaSourceConfig config) {
    this.context = context;
    this.config = config;
    this.filter = config.filter() == null ? null : RowFilter.of(config.filter(), config.columns());
    this.recordsIn = context.metricGroup().getIOMetricGroup().getNumRecordsInCounter();
    WatermarkColumn column = config.watermark();
    this.timestampIndex = column == null ? -1 : config.columns().names().indexOf(column.name());
    this.timestampPrecision =
        timestampIndex < 0
            ? 0
            : LogicalTypeChecks.getPrecision(config.columns().rowType().getTypeAt(timestampIndex));
  }

  @Override
  public void start() {
    conf = config.readConf();
    engine = DefaultEngine.create(conf);
    if (splits.isEmpty()) {
      request();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<RowData> output) {
    if (config.limit() >= 0 && emitted >= config.limit()) {
      return InputStatus.END_OF_INPUT;
    }
    if (rows == null && !open(output)) {
      if (noMoreSplits) {
        return InputStatus.END_OF_INPUT;
      }
      request();
      if (config.watermark() != null && !config.bounded() && !idle) {
        output.markIdle();
        idle = true;
      }
      return InputStatus.NOTHING_AVAILABLE;
    }
    for (int i = 0; i < ROWS_PER_POLL; i++) {
      if (!rows.next()) {
        finish();
        return InputStatus.MORE_AVAILABLE;
      }
      RowData row = rows.row();
      next = rows.position() + 1;
      if (filter != null && !filter.keeps(row)) {
        continue;
      }
      if (current.deletes()) {
        row.setRowKind(RowKind.DELETE);
      }
      if (timestampIndex >= 0 && !row.isNullAt(timestampIndex)) {
        output.collect(row, row.getTimestamp(timestampIndex, timestampPrecision).getMillisecond());
      } else {
        output.collect(row);
      }
      recordsIn.inc();
      if (++emitted == config.limit()) {
        return InputStatus.MORE_AVAILABLE;
      }
    }
    return InputStatus.MORE_AVAILABLE;
  }

  private boolean open(ReaderOutput<RowData> output) {
    DeltaSplit split = splits.poll();
    if (split == null) {
      if (available.isDone()) {
        available = new CompletableFuture<>();
      }
      return false;
    }
    if (idle) {
      output.markActive();
      idle = false;
    }
    long least = split.file().minTimestamp();
    if (config.watermark() != null && least != WatermarkColumn.UNKNOWN && least - 1 > watermark) {
      watermark = least - 1;
      output.emitWatermark(new Watermark(watermark));
    }
    current = split;
    next = split.position();
    rows =
        split.rows() == DeltaSplit.Rows.NEWLY_DELETED
            ? FileRows.openNewlyDeleted(
                engine, conf, config.columns(), split.file(), split.before(), next)
            : FileRows.open(engine, conf, config.columns(), split.file(), next);
    return true;
  }

  private void finish() {
    rows.close();
    rows = null;
    current = null;
    if (splits.isEmpty() && !noMoreSplits) {
      request();
    }
  }

  private void request() {
    if (!requested) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  @Override
  public List<DeltaSplit> snapshotState(long checkpointId) {
    List<DeltaSplit> state = new ArrayList<>(splits.size() + 1);
    if (current != null) {
      state.add(current.at(next));
    }
    state.addAll(splits);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    return available;
  }

  @Override
  public void addSplits(List<DeltaSplit> added) {
    splits.addAll(added);
    requested = false;
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
  }

  @Override
  public void close() {
    if (rows != null) {
      rows.close();
    }
  }
}
