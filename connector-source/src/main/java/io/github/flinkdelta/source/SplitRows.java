package io.github.flinkdelta.source;

import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.table.data.RowData;

/**
 * One fetch of the fetcher thread: up to a batch of one split's rows with their positions, and
 * whether the split ended with them. The task thread takes the rows in order, one at a time.
 */
@Internal
final class SplitRows implements RecordsWithSplitIds<PositionedRow> {

  private final String splitId;
  private final RowData[] rows;
  private final long[] positions;
  private final PositionedRow cursor = new PositionedRow();
  private int size;
  private int next;
  private boolean finished;
  private boolean handedOut;

  SplitRows(String splitId, int capacity) {
    this.splitId = splitId;
    this.rows = new RowData[capacity];
    this.positions = new long[capacity];
  }

  /** A fetch with no rows that ends {@code splitId}. */
  static SplitRows finished(String splitId) {
    SplitRows empty = new SplitRows(splitId, 0);
    empty.finish();
    return empty;
  }

  boolean isFull() {
    return size == rows.length;
  }

  void add(RowData row, long position) {
    rows[size] = row;
    positions[size] = position;
    size++;
  }

  /** Marks the split as read to its end: the rows of this fetch are its last. */
  void finish() {
    finished = true;
  }

  @Override
  public String nextSplit() {
    if (handedOut || size == 0) {
      return null;
    }
    handedOut = true;
    return splitId;
  }

  @Override
  public PositionedRow nextRecordFromSplit() {
    if (next == size) {
      return null;
    }
    RowData row = rows[next];
    rows[next] = null;
    return cursor.set(row, positions[next++]);
  }

  @Override
  public Set<String> finishedSplits() {
    return finished ? Set.of(splitId) : Set.of();
  }
}
