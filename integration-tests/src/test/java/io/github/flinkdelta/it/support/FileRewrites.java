/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.delta.kernel.Operation;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.DeletionVectorWriter;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/**
 * Another writer of a path table that rewrites or removes its data files, or deletes rows of them
 * with deletion vectors of its own, as a compaction, or a {@code DELETE} of another engine, would:
 * one Kernel commit of {@code remove} actions, with {@code add} actions of the files' new copies
 * for a rewrite, of the files with their new vectors for a row delete. Remove actions have no
 * public builder in Kernel 4.4, so they are made with its internal {@link AddFile}, as the sink's
 * own upsert commits are; tests only.
 */
public final class FileRewrites {

  private static final String ENGINE_INFO = "another-writer";

  private FileRewrites() {}

  /** The live rows (deletion vectors applied) of each data file of the table, by add path. */
  public static Map<String, List<List<Object>>> rowsByFile(String table) {
    Engine engine = engine();
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    Map<String, List<List<Object>>> files = new LinkedHashMap<>();
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> scanFiles = batches.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            List<List<Object>> rows = new ArrayList<>();
            files.put(addOf(scanFile).getPath(), rows);
            CloseableIterator<ColumnarBatch> data =
                engine
                    .getParquetHandler()
                    .readParquetFiles(
                        Utils.singletonCloseableIterator(
                            InternalScanFileUtils.getAddFileStatus(scanFile)),
                        physical,
                        Optional.empty())
                    .map(result -> result.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, data)) {
              while (logical.hasNext()) {
                try (CloseableIterator<Row> batch = logical.next().getRows()) {
                  while (batch.hasNext()) {
                    rows.add(values(batch.next()));
                  }
                }
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /**
   * Rewrites the data file {@code path} (as its add action names it) under a new name in the same
   * directory: a copy of its bytes, committed as a remove of the file and an add of the copy, both
   * {@code dataChange = false}, the copy with the file's deletion vector and statistics. The rows
   * the table reads stay the same; their file is another.
   *
   * @return the new file's path and the version that holds it
   */
  public static Rewrite move(String table, String path) {
    Engine engine = engine();
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    AddFile add = liveFile(engine, snapshot, path);
    String directory = path.contains("/") ? path.substring(0, path.lastIndexOf('/') + 1) : "";
    String copy = directory + "rewritten-" + UUID.randomUUID() + ".parquet";
    Path root = Path.of(URI.create(snapshot.getPath()));
    long modified;
    try {
      Path target = root.resolve(decoded(copy));
      Files.copy(root.resolve(decoded(path)), target);
      modified = Files.getLastModifiedTime(target).toMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Row copied =
        AddFile.createAddFileRow(
            null,
            copy,
            add.getPartitionValues(),
            add.getSize(),
            modified,
            false,
            add.getDeletionVector(),
            add.getTags(),
            add.getBaseRowId(),
            add.getDefaultRowCommitVersion(),
            add.getStatsJson()
                .map(json -> new RawStatistics(add.getNumRecords().orElse(0L), json)));
    long version =
        commit(
            engine,
            snapshot,
            List.of(
                SingleAction.createRemoveFileSingleAction(
                    add.toRemoveFileRow(false, Optional.of(System.currentTimeMillis()))),
                SingleAction.createAddFileSingleAction(copied)));
    return new Rewrite(copy, version);
  }

  /** The new file of a rewrite, and the version that committed it. */
  public record Rewrite(String path, long version) {}

  /**
   * Removes the data file {@code path} (as its add action names it) from the table, with {@code
   * dataChange = true}: its rows are deleted, as by another engine's {@code DELETE}.
   *
   * @return the version that removed it
   */
  public static long remove(String table, String path) {
    Engine engine = engine();
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    AddFile add = liveFile(engine, snapshot, path);
    return commit(
        engine,
        snapshot,
        List.of(
            SingleAction.createRemoveFileSingleAction(
                add.toRemoveFileRow(true, Optional.of(System.currentTimeMillis())))));
  }

  /**
   * Deletes {@code row} from the data file {@code path} of an unpartitioned table with a deletion
   * vector of this writer's own (the file's vector and the row's position), as another engine's
   * {@code DELETE} or {@code UPDATE} of the row would: a remove of the file and an add of it with
   * the new vector.
   *
   * @return the version that deleted it
   */
  public static long deleteRow(String table, String path, List<Object> row) {
    Engine engine = engine();
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    if (!snapshot.getPartitionColumnNames().isEmpty()) {
      throw new IllegalArgumentException("a row of a partitioned table: " + table);
    }
    AddFile add = liveFile(engine, snapshot, path);
    long position = positionOf(engine, snapshot, add, row);
    Configuration conf = HadoopConfigurations.of(Map.of());
    String root = snapshot.getPath();
    DeletionVectorDescriptor vector;
    try {
      RowPositions deleted =
          add.getDeletionVector().isPresent()
              ? DeletionVectorReader.read(conf, root, ours(add.getDeletionVector().get()))
              : new RowPositions();
      deleted.add(position);
      try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, root)) {
        vector = writer.write(deleted);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Row withVector =
        AddFile.createAddFileRow(
            null,
            add.getPath(),
            add.getPartitionValues(),
            add.getSize(),
            add.getModificationTime(),
            true,
            Optional.of(kernels(vector)),
            add.getTags(),
            add.getBaseRowId(),
            add.getDefaultRowCommitVersion(),
            add.getStatsJson()
                .map(json -> new RawStatistics(add.getNumRecords().orElse(0L), wide(json))));
    return commit(
        engine,
        snapshot,
        List.of(
            SingleAction.createRemoveFileSingleAction(
                add.toRemoveFileRow(true, Optional.of(System.currentTimeMillis()))),
            SingleAction.createAddFileSingleAction(withVector)));
  }

  /** The position of {@code row} among the physical rows of the file of {@code add}. */
  private static long positionOf(Engine engine, Snapshot snapshot, AddFile add, List<Object> row) {
    Row scanState = snapshot.getScanBuilder().build().getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    io.delta.kernel.utils.FileStatus file =
        io.delta.kernel.utils.FileStatus.of(
            snapshot.getPath().replaceAll("/$", "") + "/" + decoded(add.getPath()),
            add.getSize(),
            add.getModificationTime());
    long position = 0;
    try (CloseableIterator<io.delta.kernel.engine.FileReadResult> batches =
        engine
            .getParquetHandler()
            .readParquetFiles(Utils.singletonCloseableIterator(file), physical, Optional.empty())) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getData().getRows()) {
          while (rows.hasNext()) {
            // The data columns come first, then any metadata column Kernel reads (a row index).
            List<Object> values = values(rows.next());
            if (values.subList(0, row.size()).equals(row)) {
              return position;
            }
            position++;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError("data file " + add.getPath() + " has no row " + row);
  }

  /** Statistics of a file with a deletion vector: their bounds are no longer tight. */
  private static String wide(String json) {
    if (json.contains("\"tightBounds\"")) {
      return json.replace("\"tightBounds\":true", "\"tightBounds\":false");
    }
    return json.substring(0, json.lastIndexOf('}')) + ",\"tightBounds\":false}";
  }

  private static DeletionVectorDescriptor ours(
      io.delta.kernel.internal.actions.DeletionVectorDescriptor dv) {
    return new DeletionVectorDescriptor(
        dv.getStorageType(),
        dv.getPathOrInlineDv(),
        dv.getOffset().orElse(null),
        dv.getSizeInBytes(),
        dv.getCardinality());
  }

  private static io.delta.kernel.internal.actions.DeletionVectorDescriptor kernels(
      DeletionVectorDescriptor dv) {
    return new io.delta.kernel.internal.actions.DeletionVectorDescriptor(
        dv.storageType(),
        dv.pathOrInlineDv(),
        Optional.ofNullable(dv.offset()),
        dv.sizeInBytes(),
        dv.cardinality());
  }

  private static long commit(Engine engine, Snapshot snapshot, List<Row> actions) {
    Transaction txn =
        snapshot.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
    return txn.commit(
            engine,
            CloseableIterable.inMemoryIterable(Utils.toCloseableIterator(actions.iterator())))
        .getVersion();
  }

  private static AddFile liveFile(Engine engine, Snapshot snapshot, String path) {
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> scanFiles = batches.next().getRows()) {
          while (scanFiles.hasNext()) {
            AddFile add = addOf(scanFiles.next());
            if (add.getPath().equals(path)) {
              return add;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError("version " + snapshot.getVersion() + " has no data file " + path);
  }

  private static AddFile addOf(Row scanFile) {
    return new AddFile(scanFile.getStruct(scanFile.getSchema().indexOf("add")));
  }

  private static String decoded(String path) {
    try {
      return new URI(path).getPath();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(path, e);
    }
  }

  private static Engine engine() {
    return DefaultEngine.create(HadoopConfigurations.of(Map.of()));
  }

  /** The columns of a {@link Changelog} row: BIGINT, INT, BIGINT, STRING. */
  private static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.getSchema().length(); i++) {
      var type = row.getSchema().at(i).getDataType();
      if (row.isNullAt(i) || row.getSchema().at(i).isMetadataColumn()) {
        values.add(null);
      } else if (type instanceof LongType) {
        values.add(row.getLong(i));
      } else if (type instanceof IntegerType) {
        values.add(row.getInt(i));
      } else if (type instanceof StringType) {
        values.add(row.getString(i));
      } else {
        throw new IllegalArgumentException("not a column of a changelog row: " + type);
      }
    }
    return values;
  }

  /** A file's statistics as the log holds them, handed to the new add unchanged. */
  private static final class RawStatistics extends DataFileStatistics {
    private final String json;

    RawStatistics(long numRecords, String json) {
      super(numRecords, Map.of(), Map.of(), Map.of(), Optional.empty());
      this.json = json;
    }

    @Override
    public String serializeAsJson(StructType physicalSchema) {
      return json;
    }
  }
}
