package io.github.flinkdelta.source;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.read.FileRows;
import io.github.flinkdelta.core.read.RowFilter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads its splits one after another, in the order they came, on the task's thread: each split's
 * live rows in file order. Its state is the split being read, at the position of the next row, and
 * the splits queued behind it; rows before that position were emitted before the checkpoint, and
 * none after it, so a restore emits every row once.
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
    if (rows == null && !open()) {
      if (noMoreSplits) {
        return InputStatus.END_OF_INPUT;
      }
      request();
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
      output.collect(row);
      recordsIn.inc();
      if (++emitted == config.limit()) {
        return InputStatus.MORE_AVAILABLE;
      }
    }
    return InputStatus.MORE_AVAILABLE;
  }

  private boolean open() {
    DeltaSplit split = splits.poll();
    if (split == null) {
      if (available.isDone()) {
        available = new CompletableFuture<>();
      }
      return false;
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
