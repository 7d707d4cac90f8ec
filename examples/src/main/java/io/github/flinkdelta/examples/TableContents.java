/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TypeChange;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * Shows a Delta table on a path as a reader finds it: its schema, the actions of each version in
 * its log, and its rows read through Delta Kernel (which maps physical column names and reads
 * values of files written before a type was widened as the wider type).
 */
final class TableContents {

  private static final Pattern OPERATION = Pattern.compile("\"operation\":\"([^\"]*)\"");

  private TableContents() {}

  /** The latest schema, one column a line, nested fields indented; widened types say so. */
  static String schema(String table) {
    StringBuilder out = new StringBuilder();
    fields(out, snapshot(engine(), table).getSchema(), "  ");
    return out.toString();
  }

  private static void fields(StringBuilder out, StructType struct, String indent) {
    for (StructField field : struct.fields()) {
      DataType type = field.getDataType();
      out.append(indent)
          .append(field.getName())
          .append(' ')
          .append(type instanceof StructType ? "struct" : type.toString())
          .append(field.isNullable() ? "" : " NOT NULL");
      for (TypeChange change : field.getTypeChanges()) {
        out.append(" (widened from ").append(change.getFrom()).append(')');
      }
      out.append('\n');
      if (type instanceof StructType nested) {
        fields(out, nested, indent + "  ");
      }
    }
  }

  /** Each version of the log: the operation its commit records and the actions it holds. */
  static String versions(Path tableDir) throws IOException {
    List<Path> commits;
    try (Stream<Path> files = Files.list(tableDir.resolve("_delta_log"))) {
      commits =
          files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
    }
    StringBuilder out = new StringBuilder();
    for (Path commit : commits) {
      Map<String, Integer> actions = new LinkedHashMap<>();
      String operation = "";
      for (String line : Files.readAllLines(commit)) {
        // One action a line: {"<kind>":{...}}
        String kind = line.substring(2, line.indexOf('"', 2));
        if (kind.equals("commitInfo")) {
          Matcher matcher = OPERATION.matcher(line);
          operation = matcher.find() ? matcher.group(1) : "";
        } else {
          actions.merge(kind, 1, Integer::sum);
        }
      }
      long version = Long.parseLong(commit.getFileName().toString().substring(0, 20));
      out.append(String.format("  %d  %-17s", version, operation));
      actions.forEach((kind, n) -> out.append(' ').append(n > 1 ? n + " " : "").append(kind));
      out.append('\n');
    }
    return out.toString();
  }

  /** Every row of the latest version, ordered by its first column, as {@code name=value} pairs. */
  static String rows(String table) throws IOException {
    Engine engine = engine();
    Snapshot snapshot = snapshot(engine, table);
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    // Kernel's API has no public accessor for these two yet; its user guide reads tables this way.
    StructType physicalSchema = ScanStateRow.getPhysicalDataReadSchema(scanState);
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> scanFiles = scan.getScanFiles(engine)) {
      while (scanFiles.hasNext()) {
        try (CloseableIterator<Row> files = scanFiles.next().getRows()) {
          while (files.hasNext()) {
            Row scanFile = files.next();
            FileStatus file = InternalScanFileUtils.getAddFileStatus(scanFile);
            CloseableIterator<ColumnarBatch> physical =
                engine
                    .getParquetHandler()
                    .readParquetFiles(single(file), physicalSchema, Optional.empty())
                    .map(result -> result.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, physical)) {
              while (logical.hasNext()) {
                try (CloseableIterator<Row> batch = logical.next().getRows()) {
                  batch.forEachRemaining(rows::add);
                }
              }
            }
          }
        }
      }
    }
    rows.sort(Comparator.comparing(row -> row.getLong(0)));
    StringBuilder out = new StringBuilder();
    for (Row row : rows) {
      out.append("  ").append(format(row, snapshot.getSchema())).append('\n');
    }
    return out.toString();
  }

  /**
   * The row's values named by {@code schema}, the table's logical schema: Kernel names the fields
   * of nested rows by their physical names.
   */
  private static String format(Row row, StructType schema) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < schema.length(); i++) {
      values.add(schema.at(i).getName() + "=" + value(row, i, schema.at(i).getDataType()));
    }
    return String.join(", ", values);
  }

  /** The value as text, for the types this example writes. */
  private static String value(Row row, int i, DataType type) {
    if (row.isNullAt(i)) {
      return "null";
    }
    return switch (type.toString()) {
      case "long" -> Long.toString(row.getLong(i));
      case "integer" -> Integer.toString(row.getInt(i));
      case "string" -> row.getString(i);
      default -> {
        if (type instanceof StructType struct) {
          yield "{" + format(row.getStruct(i), struct) + "}";
        }
        throw new IllegalArgumentException("this example prints no " + type + " values");
      }
    };
  }

  /** The data files of the latest version. */
  static long dataFiles(String table) throws IOException {
    Engine engine = engine();
    long files = 0;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot(engine, table).getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            rows.next();
            files++;
          }
        }
      }
    }
    return files;
  }

  private static CloseableIterator<FileStatus> single(FileStatus file) {
    List<FileStatus> files = List.of(file);
    java.util.Iterator<FileStatus> it = files.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public FileStatus next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  /** The table's latest version. */
  static long latestVersion(String table) {
    return snapshot(engine(), table).getVersion();
  }

  private static Engine engine() {
    return DefaultEngine.create(new Configuration());
  }

  private static Snapshot snapshot(Engine engine, String table) {
    return TableManager.loadSnapshot(table).build(engine);
  }
}
