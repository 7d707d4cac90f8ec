/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads every row of a Delta table back through Kernel, as lists of canonical Java values (see
 * {@link CanonicalRows}), so tests can compare exact rows. Reading needs two Kernel internals
 * (scan-file status and the physical read schema); tests only.
 */
public final class DeltaTableReader {

  private DeltaTableReader() {}

  public static List<List<Object>> readAll(String path) {
    return readAll(
        path, io.github.flinkdelta.core.storage.HadoopConfigurations.of(java.util.Map.of()));
  }

  public static List<List<Object>> readAll(String path, Configuration conf) {
    Engine engine = DefaultEngine.create(conf);
    Snapshot snapshot = TableManager.loadSnapshot(path).build(engine);
    return read(engine, snapshot);
  }

  public static long version(String path) {
    Engine engine =
        DefaultEngine.create(
            io.github.flinkdelta.core.storage.HadoopConfigurations.of(java.util.Map.of()));
    return TableManager.loadSnapshot(path).build(engine).getVersion();
  }

  /** The table properties of the latest version. */
  public static java.util.Map<String, String> properties(String path) {
    Engine engine =
        DefaultEngine.create(
            io.github.flinkdelta.core.storage.HadoopConfigurations.of(java.util.Map.of()));
    return TableManager.loadSnapshot(path).build(engine).getTableProperties();
  }

  /** The version of the table's newest Delta checkpoint file, or -1 without one. */
  public static long lastCheckpointVersion(String path) {
    java.io.File log = new java.io.File(java.net.URI.create(path).getPath(), "_delta_log");
    String[] names = log.list((dir, name) -> name.matches("\\d{20}\\.checkpoint\\.parquet"));
    long latest = -1;
    for (String name : names == null ? new String[0] : names) {
      latest = Math.max(latest, Long.parseLong(name.substring(0, 20)));
    }
    return latest;
  }

  /** The number of data files in the table's latest version. */
  public static long fileCount(String path) {
    return files(path).size();
  }

  /** The bytes of the data files in the table's latest version, as their {@code add} records. */
  public static long fileBytes(String path) {
    return files(path).stream().mapToLong(io.delta.kernel.utils.FileStatus::getSize).sum();
  }

  private static List<io.delta.kernel.utils.FileStatus> files(String path) {
    Engine engine =
        DefaultEngine.create(
            io.github.flinkdelta.core.storage.HadoopConfigurations.of(java.util.Map.of()));
    Snapshot snapshot = TableManager.loadSnapshot(path).build(engine);
    List<io.delta.kernel.utils.FileStatus> files = new java.util.ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            files.add(io.delta.kernel.internal.InternalScanFileUtils.getAddFileStatus(rows.next()));
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  public static List<List<Object>> read(Engine engine, Snapshot snapshot) {
    List<List<Object>> out = new ArrayList<>();
    forEachRow(engine, snapshot, out::add);
    return out;
  }

  /** Hands every row of the table's latest version to {@code action}, without keeping them. */
  public static void forEachRow(String path, java.util.function.Consumer<List<Object>> action) {
    Engine engine =
        DefaultEngine.create(
            io.github.flinkdelta.core.storage.HadoopConfigurations.of(java.util.Map.of()));
    forEachRow(engine, TableManager.loadSnapshot(path).build(engine), action);
  }

  private static void forEachRow(
      Engine engine, Snapshot snapshot, java.util.function.Consumer<List<Object>> action) {
    Scan scan = snapshot.getScanBuilder().build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanStateRow.getPhysicalDataReadSchema(scanState);
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
          while (scanFiles.hasNext()) {
            Row scanFile = scanFiles.next();
            FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
            CloseableIterator<ColumnarBatch> data =
                engine
                    .getParquetHandler()
                    .readParquetFiles(
                        Utils.singletonCloseableIterator(status),
                        physical,
                        java.util.Optional.empty())
                    .map(r -> r.getData());
            try (CloseableIterator<FilteredColumnarBatch> logical =
                Scan.transformPhysicalData(engine, scanState, scanFile, data)) {
              while (logical.hasNext()) {
                try (CloseableIterator<Row> rows = logical.next().getRows()) {
                  while (rows.hasNext()) {
                    action.accept(values(rows.next()));
                  }
                }
              }
            }
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<Object> values(Row row) {
    StructType schema = row.getSchema();
    List<Object> values = new ArrayList<>(schema.length());
    for (int i = 0; i < schema.length(); i++) {
      values.add(value(row, i, schema.at(i).getDataType()));
    }
    return values;
  }

  private static Object value(Row row, int i, DataType type) {
    if (row.isNullAt(i)) {
      return null;
    } else if (type instanceof BooleanType) {
      return row.getBoolean(i);
    } else if (type instanceof ByteType) {
      return row.getByte(i);
    } else if (type instanceof ShortType) {
      return row.getShort(i);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return row.getInt(i);
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return row.getLong(i);
    } else if (type instanceof FloatType) {
      return row.getFloat(i);
    } else if (type instanceof DoubleType) {
      return row.getDouble(i);
    } else if (type instanceof DecimalType) {
      return row.getDecimal(i);
    } else if (type instanceof StringType) {
      return row.getString(i);
    } else if (type instanceof BinaryType) {
      return ByteBuffer.wrap(row.getBinary(i));
    } else if (type instanceof StructType) {
      return values(row.getStruct(i));
    } else if (type instanceof ArrayType array) {
      return list(row.getArray(i), array.getElementType());
    } else if (type instanceof MapType map) {
      return map(row.getMap(i), map);
    }
    throw new IllegalArgumentException("unsupported " + type);
  }

  private static List<Object> list(ArrayValue array, DataType elementType) {
    List<Object> out = new ArrayList<>();
    for (int j = 0; j < array.getSize(); j++) {
      out.add(value(array.getElements(), j, elementType));
    }
    return out;
  }

  private static Map<Object, Object> map(MapValue map, MapType type) {
    Map<Object, Object> out = new HashMap<>();
    for (int j = 0; j < map.getSize(); j++) {
      out.put(
          value(map.getKeys(), j, type.getKeyType()),
          value(map.getValues(), j, type.getValueType()));
    }
    return out;
  }

  private static Object value(ColumnVector vector, int i, DataType type) {
    if (vector.isNullAt(i)) {
      return null;
    } else if (type instanceof BooleanType) {
      return vector.getBoolean(i);
    } else if (type instanceof ByteType) {
      return vector.getByte(i);
    } else if (type instanceof ShortType) {
      return vector.getShort(i);
    } else if (type instanceof IntegerType || type instanceof DateType) {
      return vector.getInt(i);
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType) {
      return vector.getLong(i);
    } else if (type instanceof FloatType) {
      return vector.getFloat(i);
    } else if (type instanceof DoubleType) {
      return vector.getDouble(i);
    } else if (type instanceof DecimalType) {
      return vector.getDecimal(i);
    } else if (type instanceof StringType) {
      return vector.getString(i);
    } else if (type instanceof BinaryType) {
      return ByteBuffer.wrap(vector.getBinary(i));
    } else if (type instanceof StructType struct) {
      List<Object> values = new ArrayList<>();
      for (int f = 0; f < struct.length(); f++) {
        values.add(value(vector.getChild(f), i, struct.at(f).getDataType()));
      }
      return values;
    } else if (type instanceof ArrayType array) {
      return list(vector.getArray(i), array.getElementType());
    } else if (type instanceof MapType map) {
      return map(vector.getMap(i), map);
    }
    throw new IllegalArgumentException("unsupported " + type);
  }
}
