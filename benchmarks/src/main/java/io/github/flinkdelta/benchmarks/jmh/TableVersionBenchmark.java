/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks.jmh;

import io.github.flinkdelta.benchmarks.BenchmarkRows;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one table version costs the committer on its own thread: {@value #TABLES} path tables of the
 * comparison's ten columns, committed in turn, one data file per version under the sink's
 * transaction id, each table's Delta checkpoint every ten versions written on the same thread and
 * the table reloaded after it, as the committer does. The data files are named, not written: the
 * figure is the commit's and the checkpoint's, not Parquet's. Each iteration starts from new
 * tables, which grow by one file per version while it runs, as a streaming job's do.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class TableVersionBenchmark {

  static final int TABLES = 20;

  private static final String APP_ID = "benchmark";

  private final Configuration conf = HadoopConfigurations.of(Map.of());
  private final DeltaTable[] tables = new DeltaTable[TABLES];
  private final DeltaCheckpoints[] checkpoints = new DeltaCheckpoints[TABLES];
  private final long[] txns = new long[TABLES];
  private Path dir;
  private long versions;

  @Setup(Level.Iteration)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("table-version-benchmark");
    java.util.Arrays.fill(txns, 0);
    versions = 0;
    TableDefinition definition =
        new TableDefinition(DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE), List.of(), Map.of());
    for (int i = 0; i < TABLES; i++) {
      String path = dir.resolve("t" + i).toUri().toString();
      tables[i] =
          DeltaTable.open(
              TableRequest.of(new PathTableLocator(path), conf).creatingIfMissing(definition));
      checkpoints[i] = tables[i].checkpoints(10, Executors.newDirectExecutorService());
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() throws Exception {
    for (int i = 0; i < TABLES; i++) {
      checkpoints[i].close();
      tables[i].close();
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Microseconds per table version: the commit, and a tenth of a Delta checkpoint. */
  @Benchmark
  public long commitOneVersion() {
    int table = (int) (versions++ % TABLES);
    long txn = ++txns[table];
    DataFile file =
        new DataFile(
            "part-" + txn + ".parquet",
            100_000,
            1_000,
            Map.of(),
            "{\"numRecords\":1000,\"minValues\":{\"event_id\":" + txn + "}}");
    CommitOutcome outcome = tables[table].commit(APP_ID, txn, List.of(file));
    if (!(outcome instanceof CommitOutcome.Committed committed)) {
      throw new IllegalStateException("Version not committed: " + outcome);
    }
    checkpoints[table].committed(tables[table].snapshot());
    tables[table].reloadIfDue(checkpoints[table].latestCheckpointVersion());
    return committed.tableVersion();
  }
}
