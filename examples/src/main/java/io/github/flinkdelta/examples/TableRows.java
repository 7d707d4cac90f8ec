package io.github.flinkdelta.examples;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;

/** Counts a table's rows from the record counts its commits recorded for each data file. */
final class TableRows {

  private TableRows() {}

  static long count(Engine engine, Snapshot snapshot) throws IOException {
    long rows = 0;
    try (CloseableIterator<FilteredColumnarBatch> files =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row add = scanFiles.next().getStruct(0);
            String stats = add.getString(add.getSchema().indexOf("stats"));
            rows += DataFileStatistics.getNumRecords(stats).orElseThrow();
          }
        }
      }
    }
    return rows;
  }
}
