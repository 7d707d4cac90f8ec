/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks.jmh;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultParquetHandler;
import io.delta.kernel.defaults.engine.hadoopio.HadoopFileIO;
import io.delta.kernel.defaults.internal.data.DefaultColumnarBatch;
import io.delta.kernel.defaults.internal.data.vector.DefaultGenericVector;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.github.flinkdelta.benchmarks.BenchmarkRows;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Row → Parquet: the sink's writer against Delta Kernel's {@code DefaultParquetHandler}, writing
 * the same {@value #ROWS} benchmark rows into one Snappy file with statistics on every column. Each
 * side gets its input in its own in-memory form, prepared before measuring: Flink {@code RowData}
 * for ours, Kernel column vectors for Kernel's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ParquetWriterBenchmark {

  static final int ROWS = 100_000;

  private final Configuration conf = HadoopConfigurations.of(Map.of());
  private Path dir;
  private FileLayout layout;
  private List<RowData> rows;
  private StructType kernelSchema;
  private DefaultColumnarBatch batch;
  private List<Column> statsColumns;
  private DefaultParquetHandler kernel;
  private int round;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("parquet-writer-benchmark");
    String table = dir.resolve("table").toUri().toString();
    try (DeltaTable delta =
        DeltaTable.open(
            TableRequest.of(new PathTableLocator(table), conf)
                .creatingIfMissing(
                    new TableDefinition(
                        DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE), List.of(), Map.of())))) {
      layout = delta.layoutFor(BenchmarkRows.TYPE, List.of());
    }
    rows = new ArrayList<>(ROWS);
    for (long i = 0; i < ROWS; i++) {
      rows.add(BenchmarkRows.row(i));
    }
    kernelSchema = DeltaTypes.toDeltaSchema(BenchmarkRows.TYPE);
    batch = new DefaultColumnarBatch(ROWS, kernelSchema, vectors(rows, kernelSchema));
    statsColumns = new ArrayList<>();
    for (StructField field : kernelSchema.fields()) {
      statsColumns.add(new Column(field.getName()));
    }
    kernel = new DefaultParquetHandler(new HadoopFileIO(conf));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Rows per second through the sink's writer ({@code PartitionedDataWriter}). */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public DataFiles flinkDeltaWriter() throws IOException {
    var options = FileWriteOptions.from(new org.apache.flink.configuration.Configuration());
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            layout, conf, dir.resolve("ours").toUri().toString(), options, "run-" + round++)) {
      for (RowData row : rows) {
        writer.write(row);
      }
      return writer.flush();
    }
  }

  /** Rows per second through Kernel's {@code DefaultParquetHandler.writeParquetFiles}. */
  @Benchmark
  @OperationsPerInvocation(ROWS)
  public DataFileStatus kernelDefaultParquetHandler() throws IOException {
    String target = dir.resolve("kernel-" + round++).toUri().toString();
    CloseableIterator<FilteredColumnarBatch> input =
        io.delta.kernel.internal.util.Utils.singletonCloseableIterator(
            new FilteredColumnarBatch(batch, Optional.empty()));
    try (CloseableIterator<DataFileStatus> written =
        kernel.writeParquetFiles(target, input, statsColumns)) {
      return written.next();
    }
  }

  private static ColumnVector[] vectors(List<RowData> rows, StructType schema) {
    List<LogicalType> types = BenchmarkRows.TYPE.getChildren();
    ColumnVector[] vectors = new ColumnVector[types.size()];
    for (int c = 0; c < vectors.length; c++) {
      RowData.FieldGetter getter = RowData.createFieldGetter(types.get(c), c);
      DataType type = schema.at(c).getDataType();
      Object[] values = new Object[rows.size()];
      for (int r = 0; r < values.length; r++) {
        values[r] = kernelValue(getter.getFieldOrNull(rows.get(r)));
      }
      vectors[c] = DefaultGenericVector.fromArray(type, values);
    }
    return vectors;
  }

  private static Object kernelValue(Object flink) {
    if (flink instanceof org.apache.flink.table.data.StringData string) {
      return string.toString();
    } else if (flink instanceof TimestampData timestamp) {
      return timestamp.getMillisecond() * 1_000 + timestamp.getNanoOfMillisecond() / 1_000;
    } else if (flink instanceof org.apache.flink.table.data.DecimalData decimal) {
      return decimal.toBigDecimal();
    }
    return flink;
  }
}
