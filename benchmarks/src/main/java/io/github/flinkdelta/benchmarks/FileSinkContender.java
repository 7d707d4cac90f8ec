/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;

/**
 * Flink's {@code FileSink} with the {@code flink-parquet} bulk writer: Parquet files rolled and
 * made visible (renamed) at each checkpoint, with no table commit. The ceiling for a Flink Parquet
 * writer. A commit is visible when its files carry their final names.
 */
final class FileSinkContender implements Contender {

  static final String NAME = "flink-filesink-parquet";

  private Path root;
  private FileSink<RowData> sink;

  @Override
  public void prepare(Path dir, Scenario scenario, RunSettings settings) throws IOException {
    root = Files.createDirectories(dir.resolve("filesink"));
    Configuration parquet = new Configuration(false);
    parquet.set("parquet.compression", settings.codec());
    parquet.setLong("parquet.block.size", settings.rowGroupBytes());
    parquet.setInt("parquet.page.size", settings.pageBytes());
    BucketAssigner<RowData, String> buckets =
        scenario.partitioned() ? new CountryBuckets() : new BasePathBucketAssigner<>();
    sink =
        FileSink.forBulkFormat(
                new org.apache.flink.core.fs.Path(root.toUri()),
                ParquetRowDataBuilder.createWriterFactory(BenchmarkRows.TYPE, parquet, true))
            .withBucketAssigner(buckets)
            .withOutputFileConfig(OutputFileConfig.builder().withPartSuffix(".parquet").build())
            .build();
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    rows.sinkTo(sink).name(NAME).uid(NAME);
  }

  @Override
  public CommitObserver observeCommits() throws IOException {
    return CommitObserver.files(
        root,
        path -> {
          String name = path.getFileName().toString();
          return name.startsWith("part-") && name.endsWith(".parquet");
        });
  }

  @Override
  public Path dataRoot() {
    return root;
  }

  /** The finished part files: not hidden, so neither in progress nor pending. */
  @Override
  public java.util.List<Path> committedFiles() throws IOException {
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      return paths
          .filter(Files::isRegularFile)
          .filter(
              p -> {
                String name = p.getFileName().toString();
                return name.startsWith("part-") && name.endsWith(".parquet");
              })
          .sorted()
          .toList();
    }
  }

  /** Hive-style directories by country, as the table formats lay out that partition. */
  private static final class CountryBuckets implements BucketAssigner<RowData, String> {
    private static final int COUNTRY =
        BenchmarkRows.TYPE.getFieldIndex(BenchmarkRows.PARTITION_COLUMN);

    @Override
    public String getBucketId(RowData row, Context context) {
      return BenchmarkRows.PARTITION_COLUMN + "=" + row.getString(COUNTRY).toString();
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
      return SimpleVersionedStringSerializer.INSTANCE;
    }
  }
}
