/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.SnapshotBuilder;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads every row of a table of {@link BenchmarkRows} at its latest version through Delta Kernel's
 * scan, one data file after the other, every column decoded into a {@link RowDigest}. Like {@link
 * DeltaUpsertContender#read}, it leans on the two Kernel internals a reader needs (a scan file's
 * status and the physical read schema).
 */
final class FullScan {

  private static final String[] COLUMNS = BenchmarkRows.TYPE.getFieldNames().toArray(String[]::new);

  private FullScan() {}

  /**
   * What one scan found.
   *
   * @param version the version read
   * @param files the data files of that version
   * @param bytes their bytes
   * @param contents the digest of their rows
   * @param millis how long the scan took, snapshot load included
   */
  record Result(long version, long files, long bytes, RowDigest.Contents contents, double millis) {}

  /** Reads the table at {@code table} (a URI), expecting event ids 0 to {@code rows - 1}. */
  static Result read(String table, long rows) throws IOException {
    return read(table, new RowDigest(rows));
  }

  /**
   * Reads the table at {@code table} (a URI) into {@code digest}, which may hold other tables' rows
   * already; the result's contents are the digest's after this table.
   */
  static Result read(String table, RowDigest digest) throws IOException {
    return read(table, -1, digest);
  }

  /**
   * As {@link #read(String, RowDigest)}, for a catalog-managed table whose commits are all
   * published: {@code catalogVersion} is the latest version its catalog ratified (-1 for a table
   * the catalog does not manage).
   */
  static Result read(String table, long catalogVersion, RowDigest digest) throws IOException {
    long started = System.nanoTime();
    Engine engine = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    SnapshotBuilder builder = TableManager.loadSnapshot(table);
    if (catalogVersion >= 0) {
      builder = builder.withMaxCatalogVersion(catalogVersion);
    }
    Snapshot snapshot = builder.build(engine);
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    long files = 0;
    long bytes = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> scanFiles = batches.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            files++;
            bytes += status.getSize();
            CloseableIterator<ColumnarBatch> data =
                engine
                    .getParquetHandler()
                    .readParquetFiles(
                        Utils.singletonCloseableIterator(status), physical, Optional.empty())
                    .map(result -> result.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, data)) {
              while (logical.hasNext()) {
                add(logical.next(), digest);
              }
            }
          }
        }
      }
    }
    return new Result(
        snapshot.getVersion(),
        files,
        bytes,
        digest.contents(),
        (System.nanoTime() - started) / 1e6);
  }

  private static void add(FilteredColumnarBatch batch, RowDigest digest) {
    ColumnarBatch data = batch.getData();
    StructType schema = data.getSchema();
    ColumnVector[] columns = new ColumnVector[COLUMNS.length];
    for (int c = 0; c < COLUMNS.length; c++) {
      columns[c] = data.getColumnVector(schema.indexOf(COLUMNS[c]));
    }
    Optional<ColumnVector> selected = batch.getSelectionVector();
    for (int i = 0; i < data.getSize(); i++) {
      if (selected.isPresent() && (selected.get().isNullAt(i) || !selected.get().getBoolean(i))) {
        continue;
      }
      digest.add(
          columns[0].getLong(i),
          columns[1].isNullAt(i) ? null : columns[1].getLong(i),
          columns[2].getString(i),
          columns[3].getString(i),
          columns[4].getString(i),
          columns[5].getString(i),
          columns[6].getDouble(i),
          columns[7].getDouble(i),
          columns[8].getLong(i),
          columns[9].getDecimal(i).unscaledValue().longValueExact());
    }
  }
}
