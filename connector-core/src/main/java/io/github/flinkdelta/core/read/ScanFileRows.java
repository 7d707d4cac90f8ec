/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.Scan;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.kernel.ScanFiles;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * The rows of one data file of a scan, as Kernel reads them: the file's Parquet data in the scan's
 * physical schema, turned into the table's logical rows (partition values added, column mapping
 * undone) with a selection vector that drops the rows its deletion vector deletes.
 *
 * <p>Kernel's public API gives no file status of a scan file: it is read through {@link
 * ScanFiles#status}, as Kernel's own examples of a scan do.
 */
@Internal
public final class ScanFileRows {

  private ScanFileRows() {}

  /**
   * The logical batches of {@code scanFile}.
   *
   * @param physical the scan's physical read schema
   */
  public static CloseableIterator<FilteredColumnarBatch> read(
      Engine engine, Row scanState, StructType physical, Row scanFile) throws IOException {
    return Scan.transformPhysicalData(
        engine,
        scanState,
        scanFile,
        engine
            .getParquetHandler()
            .readParquetFiles(
                ScanFiles.only(ScanFiles.status(scanFile)), physical, Optional.empty())
            .map(result -> result.getData()));
  }
}
