/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/**
 * Apache Iceberg's Flink sink in upsert mode ({@code FlinkSink} with {@code upsert(true)} and the
 * key as equality field) into a format-2 table of a Hadoop catalog on local disk: a changed or
 * deleted key becomes an equality delete (and a position delete when its row is in a file the same
 * checkpoint writes). Rows reach the writers keyed by the equality field. Read back with {@code
 * IcebergGenerics}, which applies both kinds of delete.
 */
final class IcebergUpsertContender implements UpsertContender {

  static final String NAME = "iceberg-upsert";

  private Table table;
  private int parallelism;

  @Override
  public void prepare(Path dir, int parallelism) throws Exception {
    this.parallelism = parallelism;
    Schema schema =
        new Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "bucket", Types.IntegerType.get()),
                Types.NestedField.optional(3, "version", Types.LongType.get()),
                Types.NestedField.optional(4, "payload", Types.StringType.get())),
            Set.of(1));
    try (HadoopCatalog catalog =
        new HadoopCatalog(hadoopConf(), dir.resolve("iceberg-warehouse").toUri().toString())) {
      catalog.createNamespace(Namespace.of("bench"));
      table =
          catalog.createTable(
              TableIdentifier.of("bench", "changes"),
              schema,
              PartitionSpec.unpartitioned(),
              Map.of(
                  "format-version", "2",
                  "write.upsert.enabled", "true",
                  "write.format.default", "parquet",
                  "write.parquet.compression-codec", "snappy"));
    }
  }

  /** The configuration the other Iceberg contender uses: no {@code chmod} fork per file. */
  private static Configuration hadoopConf() {
    return HadoopConfigurations.of(Map.of());
  }

  @Override
  public void attach(DataStream<RowData> changes) {
    FlinkSink.forRowData(changes)
        .table(table)
        .tableLoader(TableLoader.fromHadoopTable(table.location(), hadoopConf()))
        .equalityFieldColumns(List.of(UpsertChangelog.KEY))
        .upsert(true)
        .distributionMode(DistributionMode.NONE)
        .writeParallelism(parallelism)
        .uidPrefix(NAME)
        .append();
  }

  @Override
  public UpsertChangelog.Contents read() throws Exception {
    table.refresh();
    long rows = 0;
    long versions = 0;
    long touched = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        rows++;
        versions += (Long) record.get(2);
        touched +=
            (Long) record.get(0) + (Integer) record.get(1) + record.get(3).toString().length();
      }
    }
    if (touched == Long.MIN_VALUE) {
      System.out.println(touched);
    }
    return new UpsertChangelog.Contents(rows, versions);
  }

  @Override
  public TableFiles files() throws Exception {
    table.refresh();
    // A large file may be planned as several tasks: files are counted by their location.
    Set<String> data = new HashSet<>();
    Set<String> withDeletes = new HashSet<>();
    Set<String> deletes = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        data.add(task.file().location());
        if (!task.deletes().isEmpty()) {
          withDeletes.add(task.file().location());
        }
        for (DeleteFile delete : task.deletes()) {
          deletes.add(delete.location());
        }
      }
    }
    return new TableFiles(data.size(), withDeletes.size(), deletes.size());
  }
}
