/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.ExpressionHandler;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.engine.ParquetHandler;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.kernel.TableProtocol;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The table's engine, except that a Parquet file written "atomically" (a Delta checkpoint) never
 * becomes visible half-written. Kernel's own writer closes its stream when the write fails or is
 * interrupted, and closing completes the file with whatever was written (S3A uploads it; the local
 * rename publishes it), which would leave a truncated checkpoint that every later snapshot load
 * trusts. Here the file is written under a hidden temporary name and renamed to its real name only
 * after the write returned normally (a rename on local and HDFS storage, a server-side copy on S3:
 * either way the checkpoint appears whole); the temporary file is always deleted.
 *
 * <p>For a table with the {@code v2Checkpoint} feature, the checkpoint is written to the V2 spec
 * ({@link V2CheckpointActions}); Kernel on its own writes the V1 spec.
 *
 * <p>Parquet holds a row group in memory until it is complete, and a checkpoint holds one row per
 * live file: with Parquet's default row group of 128 MB, the heap a checkpoint write takes would
 * grow with the table for as long as the stream runs. {@link #on} bounds the row group (unless the
 * Hadoop configuration sets {@code parquet.block.size}).
 *
 * <p>The write runs with Hadoop's configuration files hidden ({@link HadoopFilesHidden}), which
 * parquet-java would otherwise look up and parse for every checkpoint file.
 */
final class AtomicCheckpointEngine implements Engine {

  /** The row-group size of checkpoints when the Hadoop configuration sets none. */
  static final long CHECKPOINT_ROW_GROUP_BYTES = 8L << 20;

  private static final String ROW_GROUP_SIZE_KEY = "parquet.block.size";

  private final Engine delegate;
  private final Configuration conf;
  private final ParquetHandler parquet;

  AtomicCheckpointEngine(Engine delegate, Configuration conf) {
    this(delegate, conf, OptionalLong.empty());
  }

  /** Writes checkpoints with {@code tableConf} and row groups of a bounded size. */
  static AtomicCheckpointEngine on(Configuration tableConf) {
    Configuration conf = checkpointConf(tableConf);
    return new AtomicCheckpointEngine(DefaultEngine.create(conf), conf);
  }

  static Configuration checkpointConf(Configuration tableConf) {
    Configuration conf = new Configuration(tableConf);
    if (conf.get(ROW_GROUP_SIZE_KEY) == null) {
      conf.setLong(ROW_GROUP_SIZE_KEY, CHECKPOINT_ROW_GROUP_BYTES);
    }
    return conf;
  }

  private AtomicCheckpointEngine(Engine delegate, Configuration conf, OptionalLong v2Version) {
    this.delegate = delegate;
    this.conf = conf;
    this.parquet = new TemporaryFirstParquetHandler(delegate.getParquetHandler(), conf, v2Version);
  }

  /** The engine to write the checkpoint of {@code snapshot} with. */
  AtomicCheckpointEngine forCheckpointOf(Snapshot snapshot) {
    boolean v2 = TableProtocol.of(snapshot).writerFeatures().contains(V2CheckpointActions.FEATURE);
    return new AtomicCheckpointEngine(
        delegate, conf, v2 ? OptionalLong.of(snapshot.getVersion()) : OptionalLong.empty());
  }

  @Override
  public ExpressionHandler getExpressionHandler() {
    return delegate.getExpressionHandler();
  }

  @Override
  public JsonHandler getJsonHandler() {
    return delegate.getJsonHandler();
  }

  @Override
  public FileSystemClient getFileSystemClient() {
    return delegate.getFileSystemClient();
  }

  @Override
  public ParquetHandler getParquetHandler() {
    return parquet;
  }

  @Override
  public List<MetricsReporter> getMetricsReporters() {
    return delegate.getMetricsReporters();
  }

  private static final class TemporaryFirstParquetHandler implements ParquetHandler {

    private final ParquetHandler delegate;
    private final Configuration conf;
    private final OptionalLong v2Version;

    TemporaryFirstParquetHandler(
        ParquetHandler delegate, Configuration conf, OptionalLong v2Version) {
      this.delegate = delegate;
      this.conf = conf;
      this.v2Version = v2Version;
    }

    @Override
    public CloseableIterator<FileReadResult> readParquetFiles(
        CloseableIterator<FileStatus> files,
        StructType physicalSchema,
        Optional<Predicate> predicate)
        throws IOException {
      return delegate.readParquetFiles(files, physicalSchema, predicate);
    }

    @Override
    public CloseableIterator<DataFileStatus> writeParquetFiles(
        String directoryPath,
        CloseableIterator<FilteredColumnarBatch> dataIter,
        List<Column> statsColumns)
        throws IOException {
      return delegate.writeParquetFiles(directoryPath, dataIter, statsColumns);
    }

    @Override
    public void writeParquetFileAtomically(
        String filePath, CloseableIterator<FilteredColumnarBatch> data) throws IOException {
      Path target = new Path(filePath);
      FileSystem fs = target.getFileSystem(conf);
      if (fs.exists(target)) {
        data.close();
        throw new FileAlreadyExistsException(filePath);
      }
      Path temporary =
          new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
      boolean renamed = false;
      try {
        CloseableIterator<FilteredColumnarBatch> actions =
            v2Version.isPresent() ? V2CheckpointActions.of(data, v2Version.getAsLong()) : data;
        HadoopFilesHidden.run(
            () -> delegate.writeParquetFileAtomically(temporary.toString(), actions));
        renamed = fs.rename(temporary, target);
        if (!renamed) {
          if (fs.exists(target)) {
            throw new FileAlreadyExistsException(filePath);
          }
          throw new IOException("Could not rename " + temporary + " to " + target);
        }
      } finally {
        if (!renamed) {
          deleteQuietly(fs, temporary);
        }
      }
    }

    private static void deleteQuietly(FileSystem fs, Path path) {
      try {
        fs.delete(path, false);
      } catch (IOException | RuntimeException e) {
        // A leftover hidden temporary file is harmless: readers never take it for a checkpoint.
      }
    }
  }
}
