/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.core.read.FileRows;
import io.github.flinkdelta.core.read.RowFilter;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * One hand-over from the fetcher thread: the rows of a split's file that the fetcher read into
 * memory (a row group), which the task thread decodes as it takes them, or the end of the split.
 * Decoding on the task thread keeps each row where it is emitted; what the barrier may wait for is
 * decoding rows already in memory, never storage. The fetcher touches the file again only after
 * {@link #recycle}, when the task thread is done with these rows.
 */
@Internal
final class LoadedRows implements RecordsWithSplitIds<PositionedRow> {

  private final String splitId;
  private final FileRows rows;
  private final RowFilter filter;
  private final boolean deletes;
  private final Runnable onDone;
  private final PositionedRow cursor = new PositionedRow();
  private boolean handedOut;

  private LoadedRows(
      String splitId, FileRows rows, RowFilter filter, boolean deletes, Runnable onDone) {
    this.splitId = splitId;
    this.rows = rows;
    this.filter = filter;
    this.deletes = deletes;
    this.onDone = onDone;
  }

  /**
   * The rows of {@code split}'s file in memory now.
   *
   * @param filter the rows to keep, or null for all
   * @param onDone run on the task thread when it took every row handed over
   */
  static LoadedRows of(DeltaSplit split, FileRows rows, RowFilter filter, Runnable onDone) {
    return new LoadedRows(split.splitId(), rows, filter, split.deletes(), onDone);
  }

  /** The end of {@code splitId}: its file has no more rows. */
  static LoadedRows finished(String splitId) {
    return new LoadedRows(splitId, null, null, false, null);
  }

  @Override
  public String nextSplit() {
    if (handedOut || rows == null) {
      return null;
    }
    handedOut = true;
    return splitId;
  }

  @Override
  public PositionedRow nextRecordFromSplit() {
    while (rows.nextLoaded()) {
      RowData row = rows.row();
      if (filter != null && !filter.keeps(row)) {
        continue;
      }
      if (deletes) {
        row.setRowKind(RowKind.DELETE);
      }
      return cursor.set(row, rows.position());
    }
    return null;
  }

  @Override
  public Set<String> finishedSplits() {
    return rows == null ? Set.of(splitId) : Set.of();
  }

  @Override
  public void recycle() {
    if (onDone != null) {
      onDone.run();
    }
  }
}
