/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.FlinkSink;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Apache Iceberg's Flink sink ({@code FlinkSink}, its writer and single committer) into a table of
 * a Hadoop catalog on local disk. A commit is visible when the table's new metadata file has its
 * final name. Iceberg publishes no runtime for Flink 2.2; its Flink 2.1 runtime runs here.
 */
final class IcebergContender implements Contender {

  static final String NAME = "iceberg-flink-sink";

  private static final Pattern METADATA_FILE = Pattern.compile("v\\d+\\.metadata\\.json");

  private static final TableIdentifier TABLE = TableIdentifier.of("bench", "events");

  private Table table;
  private Path location;
  private int parallelism;

  @Override
  public void prepare(Path dir, Scenario scenario, RunSettings settings) throws IOException {
    Configuration conf = hadoopConf();
    Schema schema = FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(BenchmarkRows.TYPE));
    PartitionSpec spec =
        scenario.partitioned()
            ? PartitionSpec.builderFor(schema).identity(BenchmarkRows.PARTITION_COLUMN).build()
            : PartitionSpec.unpartitioned();
    try (HadoopCatalog catalog = new HadoopCatalog(conf, warehouse(dir).toUri().toString())) {
      catalog.createNamespace(TABLE.namespace());
      table =
          catalog.createTable(
              TABLE,
              schema,
              spec,
              Map.of(
                  "write.format.default", "parquet",
                  "write.parquet.compression-codec", settings.codec().toLowerCase(),
                  "write.parquet.row-group-size-bytes", Long.toString(settings.rowGroupBytes()),
                  "write.parquet.page-size-bytes", Integer.toString(settings.pageBytes())));
    }
    location = Path.of(java.net.URI.create(table.location()));
    parallelism = settings.parallelism();
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    FlinkSink.forRowData(rows)
        .table(table)
        .tableLoader(TableLoader.fromHadoopTable(table.location(), hadoopConf()))
        .distributionMode(DistributionMode.NONE)
        .writeParallelism(parallelism)
        .uidPrefix(NAME)
        .append();
  }

  /**
   * The root of the table {@link #prepare} creates under {@code dir}, as its catalog lays it out.
   */
  static Path location(Path dir) {
    return warehouse(dir).resolve(TABLE.namespace().level(0)).resolve(TABLE.name());
  }

  private static Path warehouse(Path dir) {
    return dir.resolve("iceberg-warehouse");
  }

  /**
   * The Hadoop configuration this sink's Delta contenders use on local disk: without it, Hadoop's
   * local file system forks a {@code chmod} process for every file Iceberg creates.
   */
  static Configuration hadoopConf() {
    return HadoopConfigurations.of(Map.of());
  }

  @Override
  public CommitObserver observeCommits() throws IOException {
    return CommitObserver.files(
        location.resolve("metadata"),
        path -> METADATA_FILE.matcher(path.getFileName().toString()).matches(),
        IcebergContender::metadataVersion);
  }

  @Override
  public Path dataRoot() {
    return location.resolve("data");
  }

  private static long metadataVersion(Path metadataFile) {
    String name = metadataFile.getFileName().toString();
    return Long.parseLong(name.substring(1, name.indexOf('.')));
  }

  /**
   * For each metadata version, the checkpoint its current snapshot committed, as Iceberg's Flink
   * committer records it in the snapshot summary ({@code flink.max-committed-checkpoint-id}).
   */
  @Override
  public java.util.Map<Long, Long> checkpointOfVersion() throws IOException {
    table.refresh();
    java.util.Map<Long, Long> checkpointOfSnapshot = new java.util.HashMap<>();
    for (org.apache.iceberg.Snapshot snapshot : table.snapshots()) {
      String checkpoint = snapshot.summary().get("flink.max-committed-checkpoint-id");
      if (checkpoint != null) {
        checkpointOfSnapshot.put(snapshot.snapshotId(), Long.parseLong(checkpoint));
      }
    }
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.Map<Long, Long> checkpoints = new java.util.HashMap<>();
    try (java.util.stream.Stream<Path> files =
        java.nio.file.Files.list(location.resolve("metadata"))) {
      for (Path file : files.toList()) {
        if (METADATA_FILE.matcher(file.getFileName().toString()).matches()) {
          long snapshot = json.readTree(file.toFile()).path("current-snapshot-id").asLong(-1);
          Long checkpoint = checkpointOfSnapshot.get(snapshot);
          if (checkpoint != null) {
            checkpoints.put(metadataVersion(file), checkpoint);
          }
        }
      }
    }
    return checkpoints;
  }

  /** The data files of the table's current snapshot. */
  @Override
  public java.util.List<Path> committedFiles() throws IOException {
    table.refresh();
    java.util.List<Path> files = new java.util.ArrayList<>();
    try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks =
        table.newScan().planFiles()) {
      for (org.apache.iceberg.FileScanTask task : tasks) {
        files.add(Path.of(java.net.URI.create(task.file().location())));
      }
    }
    return files;
  }
}
