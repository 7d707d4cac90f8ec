/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;

/**
 * The live rows of one data file, in file order, each with its position (its row index in the
 * file): the rows the file's deletion vector removes are skipped, partition values are added, and
 * every row is a new object a caller may keep.
 *
 * <p>A reader that stopped after position {@code p} goes on from {@code p + 1}: positions are the
 * file's own, so they stay meaningful across restarts whatever was deleted.
 */
@Internal
public final class FileRows implements AutoCloseable {

  private final String tableName;
  private final ReadFile file;
  private final RowPositions selected;
  private final boolean onlySelected;
  private final DataFileRows rows;
  private final long from;

  private long position = -1;
  private RowData row;

  private FileRows(
      String tableName,
      ReadFile file,
      RowPositions selected,
      boolean onlySelected,
      DataFileRows rows,
      long from) {
    this.tableName = tableName;
    this.file = file;
    this.selected = selected;
    this.onlySelected = onlySelected;
    this.rows = rows;
    this.from = from;
  }

  /**
   * Opens {@code file} to read its live rows at positions {@code from} and after.
   *
   * @throws UncheckedIOException naming the file when it or its deletion vector cannot be read
   */
  public static FileRows open(
      Engine engine, Configuration conf, ReadColumns columns, ReadFile file, long from) {
    try {
      RowPositions deleted = positions(conf, columns, file.deletionVector());
      return open(engine, conf, columns, file, deleted, false, from);
    } catch (IOException e) {
      throw cannotRead(columns.tableName(), file, e);
    }
  }

  /**
   * Opens {@code file} to read the rows its deletion vector deletes and {@code before} did not: the
   * rows a version deleted by giving the file a new deletion vector. They are still in the file.
   *
   * @param before the file's deletion vector before, or null when it had none
   * @throws UncheckedIOException naming the file when it or a deletion vector cannot be read
   */
  public static FileRows openNewlyDeleted(
      Engine engine,
      Configuration conf,
      ReadColumns columns,
      ReadFile file,
      DeletionVectorDescriptor before,
      long from) {
    try {
      RowPositions now = positions(conf, columns, file.deletionVector());
      RowPositions newlyDeleted = now == null ? new RowPositions() : now.copy();
      RowPositions was = positions(conf, columns, before);
      if (was != null) {
        newlyDeleted.removeAll(was);
      }
      return open(engine, conf, columns, file, newlyDeleted, true, from);
    } catch (IOException e) {
      throw cannotRead(columns.tableName(), file, e);
    }
  }

  private static RowPositions positions(
      Configuration conf, ReadColumns columns, DeletionVectorDescriptor dv) throws IOException {
    return dv == null ? null : DeletionVectorReader.read(conf, columns.tableRoot(), dv);
  }

  private static FileRows open(
      Engine engine,
      Configuration conf,
      ReadColumns columns,
      ReadFile file,
      RowPositions selected,
      boolean onlySelected,
      long from)
      throws IOException {
    if (file.size() < 0) {
      // A remove action need not say the file's size (the field is optional in the protocol).
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.path());
      file = file.withSize(path.getFileSystem(conf).getFileStatus(path).getLen());
    }
    ReadColumns.Resolved resolved = columns.resolved();
    PartitionColumns partitions = PartitionColumns.of(resolved, file);
    DataFileRows rows = ParquetColumnRows.open(conf, resolved, file, partitions);
    if (rows == null) {
      rows = KernelBatchRows.open(engine, resolved, file, partitions);
    }
    return new FileRows(columns.tableName(), file, selected, onlySelected, rows, from);
  }

  /** Moves to the next live row, reading the file's next rows from storage as needed. */
  public boolean next() {
    do {
      if (nextLoaded()) {
        return true;
      }
    } while (load());
    return false;
  }

  /**
   * Moves to the next live row among those in memory; false when the rest of the file must be read
   * from storage first ({@link #load}) or the file has no more rows. A reader that does its storage
   * reads on one thread and its decoding on another calls {@link #load} on the first and this on
   * the second, never both at once.
   */
  public boolean nextLoaded() {
    try {
      while (rows.loaded()) {
        position++;
        if (position >= from && isRead(position)) {
          row = rows.next();
          return true;
        }
        rows.skip();
      }
      row = null;
      return false;
    } catch (UncheckedIOException e) {
      throw cannotRead(tableName, file, e.getCause());
    }
  }

  /**
   * Reads the file's next rows into memory (the next row group) when those in memory are used up;
   * false when the file has no more rows.
   */
  public boolean load() {
    try {
      return rows.hasNext();
    } catch (UncheckedIOException e) {
      throw cannotRead(tableName, file, e.getCause());
    }
  }

  private boolean isRead(long position) {
    if (onlySelected) {
      return selected.contains(position);
    }
    return selected == null || !selected.contains(position);
  }

  /** The current row. */
  public RowData row() {
    return row;
  }

  /** The current row's position in its file. */
  public long position() {
    return position;
  }

  @Override
  public void close() {
    try {
      rows.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static UncheckedIOException cannotRead(String table, ReadFile file, IOException e) {
    return new UncheckedIOException(
        String.format(
            "Cannot read the data file %s of Delta table %s (version %d): %s",
            file.path(), table, file.version(), e.getMessage()),
        e);
  }
}
