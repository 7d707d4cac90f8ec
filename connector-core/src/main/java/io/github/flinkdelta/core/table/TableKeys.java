package io.github.flinkdelta.core.table;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.LiveRowConsumer;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * Reads the key of every live row of a table version with the row's place (file id and position),
 * for an upsert sink's key index: only the key columns and Parquet's row index are read, rows that
 * deletion vectors delete are skipped, and partition columns come from the files' partition values.
 */
final class TableKeys {

  private TableKeys() {}

  static long scan(Engine engine, Snapshot snapshot, KeyColumns keys, LiveRowConsumer consumer) {
    StructType schema = snapshot.getSchema();
    StructType read = new StructType();
    for (String name : keys.names()) {
      read = read.add(field(schema, name));
    }
    read = read.add(StructField.DEFAULT_ROW_INDEX_COLUMN);
    Scan scan = snapshot.getScanBuilder().withReadSchema(read).build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    URI root = URI.create(snapshot.getPath());
    long rows = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> scanFiles = batches.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            Row add = scanFile.getStruct(scanFile.getSchema().indexOf("add"));
            long fileId =
                FileIds.of(
                    FileIds.relativePath(add.getString(add.getSchema().indexOf("path")), root));
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            CloseableIterator<ColumnarBatch> data =
                engine
                    .getParquetHandler()
                    .readParquetFiles(
                        Utils.singletonCloseableIterator(status), physical, Optional.empty())
                    .map(result -> result.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, data)) {
              while (logical.hasNext()) {
                rows += accept(logical.next(), keys, fileId, consumer);
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the keys of " + snapshot.getPath(), e);
    }
    return rows;
  }

  private static long accept(
      FilteredColumnarBatch batch, KeyColumns keys, long fileId, LiveRowConsumer consumer) {
    ColumnarBatch data = batch.getData();
    StructType schema = data.getSchema();
    List<String> names = keys.names();
    ColumnVector[] vectors = new ColumnVector[names.size()];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = data.getColumnVector(index(schema, names.get(i)));
    }
    ColumnVector positions =
        data.getColumnVector(schema.indexOf(StructField.DEFAULT_ROW_INDEX_COLUMN.getName()));
    Optional<ColumnVector> selection = batch.getSelectionVector();
    long accepted = 0;
    for (int row = 0; row < data.getSize(); row++) {
      if (selection.isPresent()
          && (selection.get().isNullAt(row) || !selection.get().getBoolean(row))) {
        continue;
      }
      consumer.accept(keys.keyOf(vectors, row), fileId, positions.getLong(row));
      accepted++;
    }
    return accepted;
  }

  private static StructField field(StructType schema, String name) {
    return schema.at(index(schema, name));
  }

  private static int index(StructType schema, String name) {
    for (int i = 0; i < schema.length(); i++) {
      if (schema.at(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("No column " + name + " in " + schema);
  }
}
