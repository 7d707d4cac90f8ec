/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.keys;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.kernel.ScanFiles;
import io.github.flinkdelta.core.read.ScanFileRows;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.LiveRowConsumer;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.PartitionValues;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * Reads the key of every live row of a table version with the row's place (file id and position),
 * for an upsert sink's key index: only the key columns and Parquet's row index are read, rows that
 * deletion vectors delete are skipped, and partition columns come from the files' partition values.
 */
@Internal
public final class TableKeys {

  private static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";

  private TableKeys() {}

  public static long scan(
      Engine engine, Snapshot snapshot, KeyColumns keys, LiveRowConsumer consumer) {
    Scan scan = snapshot.getScanBuilder().withReadSchema(readSchema(snapshot, keys)).build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanFiles.physicalReadSchema(scanState);
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
            try (CloseableIterator<FilteredColumnarBatch> logical =
                ScanFileRows.read(engine, scanState, physical, scanFile)) {
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

  /**
   * Reads the keys of the rows of {@code files}, which are not in {@code snapshot} yet but written
   * for it (a commit's new files): each row, deleted or not, with its position.
   */
  public static void scanFiles(
      Engine engine,
      Snapshot snapshot,
      KeyColumns keys,
      Iterable<DataFile> files,
      LiveRowConsumer consumer) {
    List<KeyFile> references = new ArrayList<>();
    for (DataFile file : files) {
      references.add(
          new KeyFile(file.path(), file.sizeBytes(), file.partitionValues(), file.path()));
    }
    scan(engine, snapshot, keys, references, consumer);
  }

  /**
   * A data file whose keys to read, which need not be in the snapshot whose schema reads it.
   *
   * @param relativePath its path relative to the table root, decoded
   * @param size its size; -1 when unknown (a remove action need not say), to be asked of storage
   * @param partitionValues its partition values; null when unknown, then taken from the path's
   *     {@code column=value} directories
   * @param description how messages name it
   */
  public record KeyFile(
      String relativePath, long size, Map<String, String> partitionValues, String description) {}

  /**
   * Reads the keys of the rows of {@code files} with the key columns as {@code snapshot} reads
   * them: each row, deleted or not, with its position.
   */
  public static void scan(
      Engine engine,
      Snapshot snapshot,
      KeyColumns keys,
      Iterable<KeyFile> files,
      LiveRowConsumer consumer) {
    StructType read = readSchema(snapshot, keys);
    Scan scan = snapshot.getScanBuilder().withReadSchema(read).build();
    StructType physical = ScanFiles.physicalReadSchema(scan.getScanState(engine));
    Set<String> partitionColumns = new HashSet<>();
    snapshot
        .getPartitionColumnNames()
        .forEach(c -> partitionColumns.add(c.toLowerCase(Locale.ROOT)));
    String root = snapshot.getPath().endsWith("/") ? snapshot.getPath() : snapshot.getPath() + "/";
    List<String> names = keys.names();
    for (KeyFile file : files) {
      long fileId = FileIds.of(file.relativePath());
      String location = root + file.relativePath();
      try {
        long size =
            file.size() >= 0
                ? file.size()
                : engine.getFileSystemClient().getFileStatus(location).getSize();
        FileStatus status = FileStatus.of(location, size, 0);
        try (CloseableIterator<ColumnarBatch> batches =
            engine
                .getParquetHandler()
                .readParquetFiles(ScanFiles.only(status), physical, Optional.empty())
                .map(result -> result.getData())) {
          while (batches.hasNext()) {
            ColumnarBatch batch = batches.next();
            ColumnVector[] vectors = new ColumnVector[names.size()];
            int dataColumn = 0;
            for (int i = 0; i < vectors.length; i++) {
              StructField field = read.at(i);
              if (partitionColumns.contains(field.getName().toLowerCase(Locale.ROOT))) {
                Literal value =
                    ScanFiles.partitionLiteral(field.getDataType(), partitionValue(file, field));
                vectors[i] =
                    engine
                        .getExpressionHandler()
                        .getEvaluator(batch.getSchema(), value, field.getDataType())
                        .eval(batch);
              } else {
                vectors[i] = batch.getColumnVector(dataColumn++);
              }
            }
            ColumnVector positions = batch.getColumnVector(batch.getSchema().length() - 1);
            for (int row = 0; row < batch.getSize(); row++) {
              consumer.accept(keys.keyOf(vectors, row), fileId, positions.getLong(row));
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot read the keys of data file " + file.description(), e);
      }
    }
  }

  /**
   * The value of partition column {@code field} for {@code file}: a file the sink wrote names its
   * partition values by logical column name, an action of the log by physical name.
   */
  private static String partitionValue(KeyFile file, StructField field) {
    String column = field.getName();
    String physical =
        field.getMetadata().contains(PHYSICAL_NAME)
            ? field.getMetadata().getString(PHYSICAL_NAME)
            : column;
    if (file.partitionValues() != null) {
      for (var entry : file.partitionValues().entrySet()) {
        if (entry.getKey().equalsIgnoreCase(column) || entry.getKey().equals(physical)) {
          return entry.getValue();
        }
      }
      return null;
    }
    // Writers put a file of partition column c with value v under a directory c=v (escaped).
    for (var entry : PartitionValues.fromPath(file.relativePath()).entrySet()) {
      if (entry.getKey().equalsIgnoreCase(column) || entry.getKey().equals(physical)) {
        return entry.getValue();
      }
    }
    throw new IllegalStateException(
        String.format(
            "A remove action of data file %s names no partition values, and its path holds no"
                + " value of partition column '%s'",
            file.description(), column));
  }

  /** The key columns as the snapshot names them, then the row index. */
  private static StructType readSchema(Snapshot snapshot, KeyColumns keys) {
    StructType schema = snapshot.getSchema();
    StructType read = new StructType();
    for (String name : keys.names()) {
      read = read.add(field(schema, name));
    }
    return read.add(StructField.DEFAULT_ROW_INDEX_COLUMN);
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
