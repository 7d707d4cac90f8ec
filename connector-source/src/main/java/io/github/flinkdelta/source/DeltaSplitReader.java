/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
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
import org.apache.hadoop.conf.Configuration;

/**
 * The storage side of a reader, on its fetcher thread: opens each split's file (its footer and
 * deletion vector) and reads its rows into memory a row group at a time, in the order the splits
 * came; the task thread decodes and emits them ({@link LoadedRows}). While the task thread works
 * through one file's row group, the fetcher opens the next split's file and reads its first row
 * group, so that storage and decoding overlap and neither waits for the other's turn.
 *
 * <p>A reader holds at most two files in memory, a row group of each: the one the task thread is on
 * and the next.
 */
@Internal
final class DeltaSplitReader implements SplitReader<PositionedRow, DeltaSplit> {

  private final DeltaSourceConfig config;
  private final Configuration conf;
  private final Engine engine;
  private final RowFilter filter;
  private final Deque<DeltaSplit> splits = new ArrayDeque<>();

  /** Guards the hand-back from the task thread and the wake-ups. */
  private final Object lock = new Object();

  private boolean drained;
  private boolean woken;

  /** The file whose rows the task thread has, or null. */
  private OpenFile reading;

  /** The next split's file, opened and loaded ahead, or null. */
  private OpenFile next;

  /** A split's file, opened, and whether its first rows are in memory (false: it has none). */
  private record OpenFile(DeltaSplit split, FileRows rows, boolean hasRows) {}

  DeltaSplitReader(DeltaSourceConfig config) {
    this.config = config;
    this.conf = config.readConf();
    this.engine = DefaultEngine.create(conf);
    this.filter = config.filter() == null ? null : RowFilter.of(config.filter(), config.columns());
  }

  @Override
  public RecordsWithSplitIds<PositionedRow> fetch() {
    if (reading != null) {
      if (next == null) {
        next = openNext();
      }
      if (!awaitDrained()) {
        return nothing();
      }
      if (reading.rows().load()) {
        return handOver(reading);
      }
      return finish();
    }
    OpenFile file = next != null ? next : openNext();
    next = null;
    if (file == null) {
      return nothing();
    }
    reading = file;
    return file.hasRows() ? handOver(file) : finish();
  }

  private OpenFile openNext() {
    DeltaSplit split = splits.poll();
    if (split == null) {
      return null;
    }
    FileRows rows =
        split.rows() == DeltaSplit.Rows.NEWLY_DELETED
            ? FileRows.openNewlyDeleted(
                engine, conf, config.columns(), split.file(), split.before(), split.position())
            : FileRows.open(engine, conf, config.columns(), split.file(), split.position());
    try {
      return new OpenFile(split, rows, rows.load());
    } catch (RuntimeException e) {
      rows.close();
      throw e;
    }
  }

  private LoadedRows handOver(OpenFile file) {
    synchronized (lock) {
      drained = false;
    }
    return LoadedRows.of(file.split(), file.rows(), filter, this::drained);
  }

  /** Called on the task thread when it took every row handed over. */
  private void drained() {
    synchronized (lock) {
      drained = true;
      lock.notifyAll();
    }
  }

  /** Waits until the task thread took the rows handed over; false when woken up before. */
  private boolean awaitDrained() {
    synchronized (lock) {
      try {
        while (!drained && !woken) {
          lock.wait();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      if (drained) {
        return true;
      }
      woken = false;
      return false;
    }
  }

  private LoadedRows finish() {
    reading.rows().close();
    String splitId = reading.split().splitId();
    reading = null;
    return LoadedRows.finished(splitId);
  }

  private static RecordsWithSplitIds<PositionedRow> nothing() {
    return new RecordsBySplits.Builder<PositionedRow>().build();
  }

  @Override
  public void handleSplitsChanges(SplitsChange<DeltaSplit> change) {
    if (!(change instanceof SplitsAddition)) {
      throw new UnsupportedOperationException(
          "The Delta source reader only takes splits added to it, not " + change);
    }
    splits.addAll(change.splits());
  }

  /** Ends a wait for the task thread, so that the fetcher can take new splits or shut down. */
  @Override
  public void wakeUp() {
    synchronized (lock) {
      woken = true;
      lock.notifyAll();
    }
  }

  @Override
  public void close() {
    if (reading != null) {
      reading.rows().close();
      reading = null;
    }
    if (next != null) {
      next.rows().close();
      next = null;
    }
  }
}
