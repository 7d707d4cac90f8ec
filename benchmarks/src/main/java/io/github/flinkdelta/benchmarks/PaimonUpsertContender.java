/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;

/**
 * Apache Paimon's Flink sink ({@code FlinkSinkBuilder}) into a primary-key table of a file-system
 * catalog on local disk, Paimon's defaults otherwise (merge engine {@code deduplicate}, an LSM tree
 * per bucket compacted by the writers) with one bucket per writer and Parquet with Snappy, as the
 * other contenders write. Paimon publishes no Flink 2.2 or 2.3 artifact; its Flink 2.1 one runs
 * here, as Iceberg's does. Read back with Paimon's own table reader, which merges the levels.
 */
final class PaimonUpsertContender implements UpsertContender {

  static final String NAME = "paimon-upsert";

  private static final Identifier TABLE = Identifier.create("bench", "changes");

  private Catalog catalog;
  private Table table;
  private int parallelism;

  @Override
  public void prepare(Path dir, int parallelism) throws Exception {
    this.parallelism = parallelism;
    catalog =
        CatalogFactory.createCatalog(
            CatalogContext.create(
                new org.apache.paimon.fs.Path(dir.resolve("paimon-warehouse").toUri())));
    catalog.createDatabase(TABLE.getDatabaseName(), true);
    catalog.createTable(
        TABLE,
        Schema.newBuilder()
            .column("id", DataTypes.BIGINT().notNull())
            .column("bucket", DataTypes.INT())
            .column("version", DataTypes.BIGINT())
            .column("payload", DataTypes.STRING())
            .primaryKey(UpsertChangelog.KEY)
            .option("bucket", Integer.toString(parallelism))
            .option("file.format", "parquet")
            .option("file.compression", "snappy")
            .build(),
        false);
    table = catalog.getTable(TABLE);
  }

  @Override
  public void attach(DataStream<RowData> changes) {
    new FlinkSinkBuilder(table).forRowData(changes).parallelism(parallelism).build();
  }

  @Override
  public UpsertChangelog.Contents read() throws Exception {
    Table current = catalog.getTable(TABLE);
    ReadBuilder builder = current.newReadBuilder();
    List<Split> splits = builder.newScan().plan().splits();
    long[] figures = new long[3];
    try (RecordReader<org.apache.paimon.data.InternalRow> reader =
        builder.newRead().createReader(splits)) {
      reader.forEachRemaining(
          row -> {
            figures[0]++;
            figures[1] += row.getLong(2);
            figures[2] += row.getLong(0) + row.getInt(1) + row.getString(3).toString().length();
          });
    }
    if (figures[2] == Long.MIN_VALUE) {
      System.out.println(figures[2]);
    }
    return new UpsertChangelog.Contents(figures[0], figures[1]);
  }

  @Override
  public TableFiles files() throws Exception {
    Table current = catalog.getTable(TABLE);
    Set<String> data = new HashSet<>();
    Set<String> withDeletes = new HashSet<>();
    Set<String> deletes = new HashSet<>();
    for (Split split : current.newReadBuilder().newScan().plan().splits()) {
      DataSplit dataSplit = (DataSplit) split;
      List<DataFileMeta> files = dataSplit.dataFiles();
      List<DeletionFile> deletionFiles = dataSplit.deletionFiles().orElse(List.of());
      for (int i = 0; i < files.size(); i++) {
        data.add(files.get(i).fileName());
        DeletionFile deletion = i < deletionFiles.size() ? deletionFiles.get(i) : null;
        if (deletion != null) {
          withDeletes.add(files.get(i).fileName());
          deletes.add(deletion.path());
        }
      }
    }
    return new TableFiles(data.size(), withDeletes.size(), deletes.size());
  }
}
