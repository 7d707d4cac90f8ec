/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.Scan;
import io.delta.kernel.ScanBuilder;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.kernel.AddAction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The data files a read of one snapshot takes: every live file, less those Kernel's data skipping
 * (on partition values and per-file statistics) proves hold no row a filter keeps.
 *
 * <p>Kernel's scan files carry the add action; its fields are read through the Kernel adapter
 * ({@link io.github.flinkdelta.core.kernel.AddAction}), as the sink's own scans of its files do.
 */
@Internal
public final class SnapshotFiles {

  private static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";

  private SnapshotFiles() {}

  /** The files of {@code snapshot} that may hold rows {@code filter} keeps. */
  public static List<ReadFile> of(
      Engine engine, Snapshot snapshot, Optional<Predicate> filter, String tableName) {
    return of(engine, snapshot, filter, null, tableName);
  }

  /**
   * The files of {@code snapshot} that may hold rows {@code filter} keeps, each with its least
   * value of {@code watermark} (null for none; then the log's statistics are not read unless the
   * filter needs them).
   */
  public static List<ReadFile> of(
      Engine engine,
      Snapshot snapshot,
      Optional<Predicate> filter,
      WatermarkColumn watermark,
      String tableName) {
    URI root = URI.create(snapshot.getPath());
    ScanBuilder builder = snapshot.getScanBuilder();
    Scan scan = filter.map(builder::withFilter).orElse(builder).build();
    List<ReadFile> files = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches =
        scan.getScanFiles(engine, watermark != null)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            Row scanFile = rows.next();
            Row add = scanFile.getStruct(scanFile.getSchema().indexOf("add"));
            files.add(ReadFile.of(AddAction.of(add), root, snapshot.getVersion(), watermark));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot list the data files of version "
              + snapshot.getVersion()
              + " of Delta table "
              + tableName,
          e);
    }
    return files;
  }

  /**
   * The partitions of {@code snapshot} that hold a live file: each one's values by partition column
   * name (the physical names of the log turned back into the table's column names).
   */
  public static List<Map<String, String>> partitions(
      Engine engine, Snapshot snapshot, String tableName) {
    Map<String, String> names = new HashMap<>();
    for (String column : snapshot.getPartitionColumnNames()) {
      StructField field = snapshot.getSchema().get(column);
      names.put(
          field.getMetadata().contains(PHYSICAL_NAME)
              ? field.getMetadata().getString(PHYSICAL_NAME)
              : column,
          column);
    }
    Set<Map<String, String>> partitions = new LinkedHashSet<>();
    for (ReadFile file : of(engine, snapshot, Optional.empty(), tableName)) {
      Map<String, String> values = new HashMap<>();
      file.partitionValues()
          .forEach((key, value) -> values.put(names.getOrDefault(key, key), value));
      partitions.add(values);
    }
    return new ArrayList<>(partitions);
  }
}
