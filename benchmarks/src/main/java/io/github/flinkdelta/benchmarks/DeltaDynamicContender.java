/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * This project's dynamic sink ({@code DeltaSink.dynamic}) writing path tables under one root, or
 * Unity Catalog managed tables in the embedded catalog ({@code uc-testkit}, in the run's JVM, over
 * HTTP on loopback), each created by the sink when its first record arrives; upsert tables have
 * {@code event_id} as primary key. A table exists once its version 0 is committed; a checkpoint's
 * commit is visible once the commit file whose transaction version is the checkpoint id is (for a
 * managed table, its published commit file: written once the catalog has ratified the version, so
 * the latency counts publishing too). Tables are read back through Kernel ({@link FullScan}),
 * deletion vectors applied.
 */
final class DeltaDynamicContender implements DynamicContender {

  static final String NAME = "delta-dynamic";
  static final String CATALOG_NAME = "delta-dynamic-catalog";

  /**
   * The catalog that completes the workload's {@code schema.table} names in the catalog flavour.
   */
  private static final String CATALOG = "main";

  private final boolean unityCatalog;
  private final long commitIntervalMs;
  private Path root;
  private UnityCatalogServer catalog;
  private DynamicWorkload workload;
  private DynamicDeltaSinkBuilder<RowData> sink;

  /**
   * @param unityCatalog managed tables in the embedded catalog rather than path tables
   * @param commitIntervalMs the sink's {@code sink.dynamic.commit-interval}
   */
  DeltaDynamicContender(boolean unityCatalog, long commitIntervalMs) {
    this.unityCatalog = unityCatalog;
    this.commitIntervalMs = commitIntervalMs;
  }

  @Override
  public void prepare(Path dir, DynamicWorkload workload, int parallelism) throws Exception {
    this.root = dir.resolve("delta-tables");
    this.workload = workload;
    sink = DeltaSink.dynamic(new Tables(workload.tables(), workload.upserts()));
    if (unityCatalog) {
      catalog = UnityCatalogServer.builder().storageRoot(root).build().start();
      sink.unityCatalog(new UnityCatalogConnection(catalog.uri(), Secret.of("benchmark")))
          .defaultNamespace(CATALOG);
    } else {
      sink.tableRoot(root.toUri().toString());
    }
    sink.option(DeltaSinkOptions.COMPRESSION, Compression.SNAPPY)
        // Every table stays open, as Iceberg's caches are sized to hold every table.
        .option(
            DynamicSinkOptions.MAX_CACHED_TABLES,
            Math.max(DynamicSinkOptions.MAX_CACHED_TABLES.defaultValue(), workload.tables()))
        .option(DynamicSinkOptions.COMMIT_INTERVAL, Duration.ofMillis(commitIntervalMs))
        .uidPrefix(NAME);
    if (workload.upserts()) {
      // The router runs at the sink's parallelism: a key's changes reach it on one path.
      sink.distributeBy(new ByKey());
    }
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    rows.sinkTo(sink.build()).name(NAME).uid(NAME);
  }

  /** The table's directory; null for a managed table the catalog does not hold. */
  private Path table(int table) {
    if (!unityCatalog) {
      return root.resolve(DynamicWorkload.NAMESPACE).resolve(DynamicWorkload.tableName(table));
    }
    String location = catalog.storageLocation(fullName(table));
    return location == null ? null : Path.of(URI.create(location));
  }

  private static String fullName(int table) {
    return CATALOG + "." + DynamicWorkload.NAMESPACE + "." + DynamicWorkload.tableName(table);
  }

  @Override
  public List<TableCommits> commits() throws Exception {
    List<TableCommits> commits = new ArrayList<>();
    for (int t = 0; t < workload.tables(); t++) {
      Path table = table(t);
      if (table == null || !Files.isDirectory(table.resolve("_delta_log"))) {
        continue;
      }
      Map<Long, Long> visible = new HashMap<>();
      for (TableHistory.Version version : TableHistory.of(table).versions()) {
        if (version.txnVersion() >= 0) {
          visible.merge(
              version.txnVersion(),
              TableCommits.modifiedMillis(commitFile(table, version.number())),
              Math::min);
        }
      }
      commits.add(new TableCommits(t, TableCommits.modifiedMillis(commitFile(table, 0)), visible));
    }
    return commits;
  }

  private static Path commitFile(Path table, long version) {
    return table.resolve("_delta_log").resolve(String.format("%020d.json", version));
  }

  @Override
  public void read(int table, RowDigest digest) throws Exception {
    String uri = table(table).toUri().toString();
    if (unityCatalog) {
      FullScan.read(uri, catalog.latestVersion(fullName(table)), digest);
    } else {
      FullScan.read(uri, digest);
    }
  }

  @Override
  public void close() {
    if (catalog != null) {
      catalog.close();
    }
  }

  /**
   * Sends row {@code i} to table {@code bench.t<event_id % tables>}, one {@link DynamicTable} per
   * table, as the sink asks.
   */
  private static final class Tables implements DynamicRecordGenerator<RowData> {

    private static final long serialVersionUID = 1L;

    private final int tables;
    private final boolean upserts;
    private transient DynamicTable[] shapes;

    Tables(int tables, boolean upserts) {
      this.tables = tables;
      this.upserts = upserts;
    }

    @Override
    public void generate(RowData row, Output out) throws Exception {
      if (shapes == null) {
        shapes = new DynamicTable[tables];
        for (int t = 0; t < tables; t++) {
          DynamicTable shape =
              DynamicTable.of(
                  DynamicWorkload.NAMESPACE + "." + DynamicWorkload.tableName(t),
                  BenchmarkRows.TYPE);
          shapes[t] = upserts ? shape.withPrimaryKey(DynamicWorkload.KEY) : shape;
        }
      }
      out.collect(new DynamicRecord(shapes[DynamicWorkload.tableOf(row.getLong(0), tables)], row));
    }
  }

  /** A change's key, its event id. */
  private record ByKey() implements KeySelector<RowData, Long> {
    @Override
    public Long getKey(RowData row) {
      return row.getLong(0);
    }
  }
}
