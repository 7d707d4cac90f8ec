/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/** This sink writing a Delta table by path on local disk. */
final class DeltaPathContender implements Contender {

  static final String NAME = "delta-path";

  private static final Pattern COMMIT_FILE = Pattern.compile("\\d{20}\\.json");

  private Path table;
  private DeltaSink sink;

  /** The builder both Delta contenders share: same schema, layout and Parquet settings. */
  static DeltaSinkBuilder configure(DeltaSinkBuilder builder, Scenario scenario, RunSettings s) {
    builder
        .rowType(BenchmarkRows.TYPE)
        .option(DeltaSinkOptions.COMPRESSION, Compression.valueOf(s.codec()))
        .option(DeltaSinkOptions.ROW_GROUP_SIZE, new MemorySize(s.rowGroupBytes()))
        .option(DeltaSinkOptions.PAGE_SIZE, new MemorySize(s.pageBytes()));
    if (scenario.partitioned()) {
      builder.partitionColumns(BenchmarkRows.PARTITION_COLUMN);
    }
    return builder;
  }

  static boolean isCommitFile(Path path) {
    return COMMIT_FILE.matcher(path.getFileName().toString()).matches()
        && path.getParent().getFileName().toString().equals("_delta_log");
  }

  @Override
  public void prepare(Path dir, Scenario scenario, RunSettings settings) {
    table = dir.resolve("delta-table");
    sink =
        configure(DeltaSink.builder().tablePath(table.toUri().toString()), scenario, settings)
            .build();
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    rows.sinkTo(sink).name(NAME).uid(NAME);
  }

  @Override
  public CommitObserver observeCommits() throws IOException {
    return CommitObserver.files(
        table.resolve("_delta_log"), DeltaPathContender::isCommitFile, DeltaPathContender::version);
  }

  @Override
  public Path dataRoot() {
    return table;
  }

  @Override
  public java.util.List<Path> committedFiles() throws IOException {
    return addedFiles(table);
  }

  @Override
  public java.util.Map<Long, Long> checkpointOfVersion() throws IOException {
    return checkpointsOf(table);
  }

  /** The version a commit file names ({@code 00000000000000000012.json} is version 12). */
  static long version(Path commitFile) {
    String name = commitFile.getFileName().toString();
    return Long.parseLong(name.substring(0, name.indexOf('.')));
  }

  /** Each version's transaction version, which this sink sets to the checkpoint id it commits. */
  static java.util.Map<Long, Long> checkpointsOf(Path table) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.Map<Long, Long> checkpoints = new java.util.HashMap<>();
    try (java.util.stream.Stream<Path> log =
        java.nio.file.Files.list(table.resolve("_delta_log"))) {
      for (Path commit : log.filter(DeltaPathContender::isCommitFile).toList()) {
        for (String line : java.nio.file.Files.readAllLines(commit)) {
          com.fasterxml.jackson.databind.JsonNode txn = json.readTree(line).path("txn");
          if (!txn.isMissingNode()) {
            checkpoints.put(version(commit), txn.path("version").asLong());
          }
        }
      }
    }
    return checkpoints;
  }

  /**
   * The files the commits in {@code table}'s log add (the sink only adds, so these are the table's
   * files), with their URI-encoded relative paths resolved against the table.
   */
  static java.util.List<Path> addedFiles(Path table) throws IOException {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.List<Path> files = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> log =
        java.nio.file.Files.list(table.resolve("_delta_log"))) {
      for (Path commit : log.filter(DeltaPathContender::isCommitFile).sorted().toList()) {
        for (String line : java.nio.file.Files.readAllLines(commit)) {
          com.fasterxml.jackson.databind.JsonNode add = json.readTree(line).path("add");
          if (!add.isMissingNode()) {
            files.add(table.resolve(java.net.URI.create(add.path("path").asText()).getPath()));
          }
        }
      }
    }
    return files;
  }
}
