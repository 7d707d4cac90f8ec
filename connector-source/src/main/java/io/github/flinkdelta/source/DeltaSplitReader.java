package io.github.flinkdelta.source;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.read.FileRows;
import io.github.flinkdelta.core.read.RowFilter;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads splits on the reader's fetcher thread, one after another in the order they came: each
 * split's live rows in file order, a batch at a time, the rows of the filter pushed into the scan
 * only. Opening a file, reading its deletion vector and decoding Parquet happen here, so the task
 * thread, and the checkpoint barriers it handles, never wait for storage.
 *
 * <p>A read with a row limit stops reading once it fetched that many rows: the task thread ends the
 * input when it emitted them.
 */
@Internal
final class DeltaSplitReader implements SplitReader<PositionedRow, DeltaSplit> {

  /** Rows handed to the task thread per fetch. */
  static final int ROWS_PER_FETCH = 1024;

  private final DeltaSourceConfig config;
  private final Configuration conf;
  private final Engine engine;
  private final RowFilter filter;
  private final Deque<DeltaSplit> splits = new ArrayDeque<>();

  private DeltaSplit current;
  private FileRows rows;
  private long fetched;

  DeltaSplitReader(DeltaSourceConfig config) {
    this.config = config;
    this.conf = config.readConf();
    this.engine = DefaultEngine.create(conf);
    this.filter = config.filter() == null ? null : RowFilter.of(config.filter(), config.columns());
  }

  @Override
  public RecordsWithSplitIds<PositionedRow> fetch() {
    if (rows == null) {
      current = splits.poll();
      if (current == null) {
        return new RecordsBySplits.Builder<PositionedRow>().build();
      }
      if (limitReached()) {
        return SplitRows.finished(current.splitId());
      }
      rows = open(current);
    }
    SplitRows batch = new SplitRows(current.splitId(), ROWS_PER_FETCH);
    while (!batch.isFull()) {
      if (limitReached() || !rows.next()) {
        closeFile();
        batch.finish();
        break;
      }
      RowData row = rows.row();
      if (filter != null && !filter.keeps(row)) {
        continue;
      }
      if (current.deletes()) {
        row.setRowKind(RowKind.DELETE);
      }
      batch.add(row, rows.position());
      fetched++;
    }
    return batch;
  }

  private boolean limitReached() {
    return config.limit() >= 0 && fetched >= config.limit();
  }

  private FileRows open(DeltaSplit split) {
    return split.rows() == DeltaSplit.Rows.NEWLY_DELETED
        ? FileRows.openNewlyDeleted(
            engine, conf, config.columns(), split.file(), split.before(), split.position())
        : FileRows.open(engine, conf, config.columns(), split.file(), split.position());
  }

  @Override
  public void handleSplitsChanges(SplitsChange<DeltaSplit> change) {
    if (!(change instanceof SplitsAddition)) {
      throw new UnsupportedOperationException(
          "The Delta source reader only takes splits added to it, not " + change);
    }
    splits.addAll(change.splits());
  }

  /** Nothing to interrupt: a fetch returns after one batch, or at the end of its file. */
  @Override
  public void wakeUp() {}

  @Override
  public void close() {
    closeFile();
  }

  private void closeFile() {
    if (rows != null) {
      rows.close();
      rows = null;
    }
  }
}
