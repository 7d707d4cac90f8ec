package io.github.flinkdelta.core.read;

import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.table.PartitionLiterals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
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

  /** The indexes of the partition columns in a row, and their values in this file. */
  private final int[] partitionFields;

  private final Object[] partitionValues;

  private long position = -1;
  private GenericRowData row;

  private FileRows(
      String tableName,
      ReadColumns.Resolved columns,
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
    List<Integer> fields = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < columns.types.length; i++) {
      if (columns.physicalIndex[i] < 0) {
        String value = file.partitionValues().get(columns.partitionKey[i]);
        fields.add(i);
        values.add(
            KernelRows.literalValue(
                value == null
                    ? null
                    : PartitionLiterals.literal(columns.types[i], value).getValue(),
                columns.types[i]));
      }
    }
    this.partitionFields = fields.stream().mapToInt(Integer::intValue).toArray();
    this.partitionValues = values.toArray();
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
    ReadColumns.Resolved resolved = columns.resolved();
    DataFileRows rows = ParquetColumnRows.open(conf, resolved, file);
    if (rows == null) {
      rows = KernelBatchRows.open(engine, resolved, file);
    }
    return new FileRows(columns.tableName(), resolved, file, selected, onlySelected, rows, from);
  }

  /** Moves to the next live row; false when the file has no more. */
  public boolean next() {
    try {
      while (rows.hasNext()) {
        position++;
        if (position >= from && isRead(position)) {
          row = rows.next();
          for (int p = 0; p < partitionFields.length; p++) {
            row.setField(partitionFields[p], partitionValues[p]);
          }
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
