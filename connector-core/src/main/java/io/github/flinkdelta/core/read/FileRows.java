package io.github.flinkdelta.core.read;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.table.PartitionLiterals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
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
  private final ReadColumns.Resolved columns;
  private final ReadFile file;
  private final RowPositions selected;
  private final boolean onlySelected;
  private final Object[] partitionValues;
  private final CloseableIterator<FileReadResult> batches;
  private final long from;

  private ColumnarBatch batch;
  private ColumnVector[] vectors;
  private int rowInBatch;
  private long batchStart;
  private long position = -1;
  private GenericRowData row;

  private FileRows(
      String tableName,
      ReadColumns.Resolved columns,
      ReadFile file,
      RowPositions selected,
      boolean onlySelected,
      CloseableIterator<FileReadResult> batches,
      long from) {
    this.tableName = tableName;
    this.columns = columns;
    this.file = file;
    this.selected = selected;
    this.onlySelected = onlySelected;
    this.batches = batches;
    this.from = from;
    this.partitionValues = new Object[columns.types.length];
    for (int i = 0; i < partitionValues.length; i++) {
      if (columns.physicalIndex[i] < 0) {
        String value = file.partitionValues().get(columns.partitionKey[i]);
        partitionValues[i] =
            KernelRows.literalValue(
                value == null
                    ? null
                    : PartitionLiterals.literal(columns.types[i], value).getValue(),
                columns.types[i]);
      }
    }
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
      return open(engine, columns, file, deleted, false, from);
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
      return open(engine, columns, file, newlyDeleted, true, from);
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
      ReadColumns columns,
      ReadFile file,
      RowPositions selected,
      boolean onlySelected,
      long from)
      throws IOException {
    ReadColumns.Resolved resolved = columns.resolved();
    CloseableIterator<FileReadResult> batches =
        engine
            .getParquetHandler()
            .readParquetFiles(
                Utils.singletonCloseableIterator(
                    FileStatus.of(file.path(), file.size(), file.modificationTime())),
                resolved.physical,
                Optional.empty());
    return new FileRows(columns.tableName(), resolved, file, selected, onlySelected, batches, from);
  }

  /** Moves to the next live row; false when the file has no more. */
  public boolean next() {
    try {
      while (true) {
        if (batch != null && rowInBatch + 1 < batch.getSize()) {
          rowInBatch++;
          long at = batchStart + rowInBatch;
          if (at >= from && isRead(at)) {
            position = at;
            row = rowAt(rowInBatch);
            return true;
          }
        } else if (batches.hasNext()) {
          if (batch != null) {
            batchStart += batch.getSize();
          }
          batch = batches.next().getData();
          vectors = new ColumnVector[batch.getSchema().length()];
          for (int i = 0; i < vectors.length; i++) {
            vectors[i] = batch.getColumnVector(i);
          }
          rowInBatch = -1;
        } else {
          row = null;
          return false;
        }
      }
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

  private GenericRowData rowAt(int rowId) {
    GenericRowData out = new GenericRowData(columns.types.length);
    for (int i = 0; i < columns.types.length; i++) {
      int source = columns.physicalIndex[i];
      out.setField(
          i, source < 0 ? partitionValues[i] : columns.values[i].read(vectors[source], rowId));
    }
    return out;
  }

  @Override
  public void close() {
    try {
      batches.close();
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
