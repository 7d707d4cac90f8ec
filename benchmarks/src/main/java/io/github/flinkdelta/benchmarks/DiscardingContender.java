/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * No table at all: each row's values are read (as any sink must read them) and the row is dropped
 * ({@link ValueReadingSink}). Its throughput is the limit of any sink in the same job, and its CPU
 * per row is what the generator and Flink cost before a sink does anything; the other contenders
 * are measured against it. It commits nothing and writes no file.
 *
 * <p>It runs {@link #ROWS_FACTOR} times the comparison's rows: at its pace the others' row count
 * would end its job about when their warm-up ends, leaving no window to measure after it. Its
 * figures after warm-up and per row compare with theirs; its whole-job rows/s does not.
 */
final class DiscardingContender implements Contender {

  static final String NAME = "discarding-sink";

  /** How many times the comparison's rows this contender generates. */
  static final int ROWS_FACTOR = 6;

  private Path root;

  @Override
  public void prepare(Path dir, Scenario scenario, RunSettings settings) throws IOException {
    root = Files.createDirectories(dir.resolve("discarded"));
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    rows.sinkTo(new ValueReadingSink()).name(NAME).uid(NAME);
  }

  /** Watches an empty directory: there are no commits to see. */
  @Override
  public CommitObserver observeCommits() throws IOException {
    return CommitObserver.files(root, path -> false);
  }

  @Override
  public Path dataRoot() {
    return root;
  }

  @Override
  public List<Path> committedFiles() {
    return List.of();
  }

  /** Every row must have reached the sink's writers, which count what they read. */
  @Override
  public LandedRows.Landing landing(long rows) {
    long taken = ValueReadingSink.rows();
    return new LandedRows.Landing(rows, Math.max(0, rows - taken), Math.max(0, taken - rows), 0, 0);
  }
}
