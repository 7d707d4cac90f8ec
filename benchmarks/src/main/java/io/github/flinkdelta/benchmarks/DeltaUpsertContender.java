/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * This sink with a primary key into a Delta table by path on local disk; read back through Delta
 * Kernel's own scan, which applies the deletion vectors.
 *
 * <p>The read needs two Kernel internals, as the project's test reader does: a scan file's status
 * (to hand it to the Parquet reader) and the physical read schema (the table has column mapping).
 * Both are Kernel's public-facing read path in all but name; a benchmark may lean on them.
 */
final class DeltaUpsertContender implements UpsertContender {

  static final String NAME = "delta-upsert";

  /** The name of the sink's keyed writer, whose state is the key index. */
  static final String INDEX_OPERATOR = "Delta upsert writer";

  private String table;
  private DeltaSink sink;

  @Override
  public void prepare(Path dir, int parallelism) {
    table = dir.resolve("delta-table").toUri().toString();
    sink = sink(table);
  }

  static DeltaSink sink(String table) {
    return DeltaSink.builder()
        .tablePath(table)
        .rowType(UpsertChangelog.TYPE)
        .primaryKey(UpsertChangelog.KEY)
        .option(DeltaSinkOptions.COMPRESSION, Compression.SNAPPY)
        .build();
  }

  @Override
  public void attach(DataStream<RowData> changes) {
    changes.sinkTo(sink).name(NAME).uid(NAME);
  }

  @Override
  public UpsertChangelog.Contents read() throws Exception {
    return read(table);
  }

  /** Every live row of {@code table}, read as {@link UpsertContender#read} says. */
  static UpsertChangelog.Contents read(String table) throws Exception {
    Engine engine = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    long rows = 0;
    long versions = 0;
    long payloadChars = 0;
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            CloseableIterator<ColumnarBatch> data =
                engine
                    .getParquetHandler()
                    .readParquetFiles(
                        io.delta.kernel.internal.util.Utils.singletonCloseableIterator(status),
                        physical,
                        Optional.empty())
                    .map(result -> result.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, data)) {
              while (logical.hasNext()) {
                FilteredColumnarBatch batch = logical.next();
                ColumnarBatch columns = batch.getData();
                Optional<ColumnVector> selected = batch.getSelectionVector();
                ColumnVector id = columns.getColumnVector(0);
                ColumnVector bucket = columns.getColumnVector(1);
                ColumnVector version = columns.getColumnVector(2);
                ColumnVector payload = columns.getColumnVector(3);
                for (int i = 0; i < columns.getSize(); i++) {
                  if (selected.isPresent()
                      && (selected.get().isNullAt(i) || !selected.get().getBoolean(i))) {
                    continue;
                  }
                  rows++;
                  versions += version.getLong(i);
                  payloadChars += payload.getString(i).length() + id.getLong(i) + bucket.getInt(i);
                }
              }
            }
          }
        }
      }
    }
    // Keeps the reads of the other columns from being optimised away.
    if (payloadChars == Long.MIN_VALUE) {
      System.out.println(payloadChars);
    }
    return new UpsertChangelog.Contents(rows, versions);
  }

  @Override
  public TableFiles files() throws Exception {
    return filesOf(table);
  }

  static TableFiles filesOf(String table) throws Exception {
    Engine engine = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    long data = 0;
    long withDeletes = 0;
    Set<String> vectorFiles = new HashSet<>();
    try (CloseableIterator<FilteredColumnarBatch> files =
        snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            data++;
            DeletionVectorDescriptor dv =
                InternalScanFileUtils.getDeletionVectorDescriptorFromRow(scanFile);
            if (dv != null) {
              withDeletes++;
              if (dv.isOnDisk()) {
                vectorFiles.add(dv.getStorageType() + dv.getPathOrInlineDv());
              }
            }
          }
        }
      }
    }
    return new TableFiles(data, withDeletes, vectorFiles.size());
  }
}
