/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;

/**
 * Large Delta tables made quickly: versions and files committed through the connector's own {@link
 * DeltaTable} (Kernel transactions), with the statistics of one real data file repeated for files
 * that exist only in the log. Scans of these tables would fail; loading snapshots and committing to
 * them, which is what is measured, behave as on real tables.
 */
final class SyntheticTables {

  static final String APP_ID = "synthetic-table-builder";

  private SyntheticTables() {}

  /** A data file as the sink writes one, partitioned by country like the benchmark rows. */
  static DataFile template(String tableUri, Configuration conf) throws IOException {
    return write(
            tableUri,
            conf,
            "template",
            LongStream.iterate(0, i -> i < 1_000, i -> i + BenchmarkRows.COUNTRIES)
                .mapToObj(BenchmarkRows::row)
                .iterator())
        .get(0);
  }

  /** Opens the existing path table at {@code tableUri}. */
  static DeltaTable open(String tableUri, Configuration conf) {
    return DeltaTable.open(TableRequest.of(new PathTableLocator(tableUri), conf));
  }

  /** Opens the path table at {@code tableUri}, creating it for benchmark rows when missing. */
  static DeltaTable create(String tableUri, Configuration conf, List<String> partitions) {
    return DeltaTable.open(
        TableRequest.of(new PathTableLocator(tableUri), conf)
            .creatingIfMissing(
                new TableDefinition(
                    DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE), partitions, Map.of())));
  }

  /**
   * Writes {@code rows} through the sink's writer, with its default options, into the table at
   * {@code tableUri} (created partitioned by country when missing); returns the files, uncommitted.
   */
  static List<DataFile> write(
      String tableUri, Configuration conf, String filePrefix, Iterator<RowData> rows)
      throws IOException {
    List<String> partitions = List.of(BenchmarkRows.PARTITION_COLUMN);
    try (DeltaTable table = create(tableUri, conf, partitions);
        PartitionedDataWriter writer =
            new PartitionedDataWriter(
                table.layoutFor(BenchmarkRows.TYPE, partitions),
                conf,
                tableUri,
                FileWriteOptions.from(new org.apache.flink.configuration.Configuration()),
                filePrefix)) {
      while (rows.hasNext()) {
        writer.write(rows.next());
      }
      return writer.flush().toList();
    }
  }

  /**
   * Appends versions {@code from} to {@code to} as commit files, each adding one file under
   * transaction ({@link #APP_ID}, version).
   */
  static void appendVersions(java.nio.file.Path log, long from, long to, DataFile template)
      throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    long now = System.currentTimeMillis();
    for (long version = from; version <= to; version++) {
      DataFile file = files(template, version, 1).get(0);
      Map<String, Object> add = new java.util.LinkedHashMap<>();
      add.put("path", file.path());
      add.put("partitionValues", file.partitionValues());
      add.put("size", file.sizeBytes());
      add.put("modificationTime", now);
      add.put("dataChange", true);
      add.put("stats", file.statsJson());
      String commit =
          json.writeValueAsString(
                  Map.of("txn", Map.of("appId", APP_ID, "version", version, "lastUpdated", now)))
              + "\n"
              + json.writeValueAsString(Map.of("add", add))
              + "\n"
              + json.writeValueAsString(
                  Map.of(
                      "commitInfo",
                      Map.of(
                          "timestamp",
                          now,
                          "operation",
                          "STREAMING UPDATE",
                          "engineInfo",
                          "flink-connector-delta-benchmarks")))
              + "\n";
      java.nio.file.Files.writeString(
          log.resolve(String.format("%020d.json", version)),
          commit,
          java.nio.file.StandardOpenOption.CREATE_NEW);
    }
  }

  /** {@code count} files, file {@code k} alone in partition {@code p<first + k>}. */
  static List<DataFile> files(DataFile template, long first, int count) {
    List<DataFile> files = new ArrayList<>(count);
    for (long k = first; k < first + count; k++) {
      String partition = "p" + k;
      files.add(
          new DataFile(
              BenchmarkRows.PARTITION_COLUMN + "=" + partition + "/part-" + k + ".snappy.parquet",
              template.sizeBytes(),
              template.numRecords(),
              Map.of(BenchmarkRows.PARTITION_COLUMN, partition),
              template.statsJson()));
    }
    return files;
  }
}
