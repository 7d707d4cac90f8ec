/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.schema.FormerColumns;
import io.github.flinkdelta.core.schema.TableFeatureChecks;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, creates and evolves the tables a writer subtask's records name, once per table and row
 * shape: a missing table is created with the shape's columns, partition columns and properties; an
 * existing one evolves as the sink's schema evolution allows before any row of the new shape is
 * written, so no version holds a file whose columns its schema lacks. Creating races with other
 * subtasks and jobs: whoever commits version 0 first wins, and the others write that table.
 *
 * <p>Shapes are kept in a cache of bounded size, least recently used out first.
 */
final class DynamicTableResolver {

  private static final Logger LOG = LoggerFactory.getLogger(DynamicTableResolver.class);
  private static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  /** Per table name, what subtasks in this process creating it hold while they do. */
  private static final Map<String, Object> CREATING = new ConcurrentHashMap<>();

  private final DynamicSinkConfig config;
  private final int maxShapes;
  private final Map<DynamicTable, ResolvedShape> shapes;

  /** Tables checked for being writable by this process. */
  private final Set<String> writable = new HashSet<>();

  DynamicTableResolver(DynamicSinkConfig config) {
    this.config = config;
    this.maxShapes = config.sinkOptions().get(DynamicSinkOptions.MAX_CACHED_TABLES);
    this.shapes = new LinkedHashMap<>(16, 0.75f, true);
  }

  /** The table and layout of rows of {@code table}'s shape, the table created or evolved first. */
  ResolvedShape resolve(DynamicTable table) {
    ResolvedShape shape = shapes.get(table);
    if (shape == null) {
      try (var loader = ConnectorClassLoader.enter()) {
        shape = load(table);
      }
      shapes.put(table, shape);
      if (shapes.size() > maxShapes) {
        var eldest = shapes.keySet().iterator();
        eldest.next();
        eldest.remove();
      }
    }
    return shape;
  }

  /** Forgets every shape of table {@code name}, which changed in ways its layouts may not know. */
  void forget(String name) {
    shapes.keySet().removeIf(table -> table.name().equals(name));
  }

  /** Opens table {@code name}, which must exist, for a change. */
  DeltaTable open(String name) {
    return DeltaTable.open(TableRequest.of(config.names().reference(name), config.hadoopConf()));
  }

  private ResolvedShape load(DynamicTable shape) {
    Configuration options = config.optionsOf(shape.name());
    TableReference reference = config.names().reference(shape.name());
    try (DeltaTable table = openOrCreate(reference, shape, options)) {
      // Rows from before a rename or drop, sent again after a failure, carry former names.
      FormerColumns.Renaming renaming =
          table.metadata().formerColumns().renaming(shape.rowType(), table.snapshot().getSchema());
      RowType rowType = renaming.rowType();
      TableFeatureChecks.check(table.name(), table.snapshot(), rowType);
      KeyColumns key = shape.upserts() ? upsertsOn(table, rowType, shape) : null;
      table
          .metadata()
          .evolveFor(
              rowType,
              shape.partitionColumns(),
              options.get(DeltaSinkOptions.SCHEMA_EVOLUTION),
              options.get(DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING));
      FileLayout layout = table.layoutFor(rowType, shape.partitionColumns());
      if (key != null) {
        // Keys of the records are encoded as the table stores them.
        key = key.forTable(table.snapshot().getSchema());
        layout = layout.withKey(key.names());
        table.metadata().enableUpserts();
      }
      return new ResolvedShape(
          shape.name(), table.locator(), layout, renaming.keptPositions(), key, table.id());
    }
  }

  /**
   * Opens the table, creating it when it is missing; a table found rather than created is checked
   * once for being writable (creating one proves it).
   */
  private DeltaTable openOrCreate(
      TableReference reference, DynamicTable shape, Configuration options) {
    org.apache.hadoop.conf.Configuration conf = config.hadoopConf();
    if (!options.get(DeltaSinkOptions.CREATE_IF_MISSING)) {
      Optional<TableLocator> found = reference.find(conf);
      return openFound(found.isPresent() ? found.get() : reference, conf);
    }
    // Subtasks of the job in this process look and create one at a time: the second finds it.
    // Unity Catalog OSS 0.6 can register one name twice when two creations race, after which the
    // catalog cannot serve the table at all; put-if-absent makes races harmless on paths.
    Object lock = CREATING.computeIfAbsent(reference.name(), name -> new Object());
    Optional<TableLocator> found;
    try {
      synchronized (lock) {
        found = reference.find(conf);
        if (found.isEmpty()) {
          return create(reference, shape, conf);
        }
      }
    } finally {
      CREATING.remove(reference.name(), lock);
    }
    return openFound(found.get(), conf);
  }

  /**
   * Creates the table; a creation that fails is followed by a second look, which finds the table
   * another job created meanwhile.
   */
  private DeltaTable create(
      TableReference reference, DynamicTable shape, org.apache.hadoop.conf.Configuration conf) {
    try {
      TableLocator created = reference.create(conf, definition(shape));
      writable.add(created.name());
      return DeltaTable.open(TableRequest.of(created, conf));
    } catch (RuntimeException e) {
      Optional<TableLocator> found = reference.find(conf);
      if (found.isEmpty()) {
        throw e;
      }
      LOG.info("Table {} was created by another writer meanwhile", reference.name());
      return openFound(found.get(), conf);
    }
  }

  /** Opens a table that exists, checking once that this process may write it. */
  private DeltaTable openFound(TableReference existing, org.apache.hadoop.conf.Configuration conf) {
    DeltaTable table = DeltaTable.open(TableRequest.of(existing, conf));
    if (writable.add(table.name())) {
      try {
        table.checkWritable();
      } catch (RuntimeException e) {
        table.close();
        writable.remove(table.name());
        throw e;
      }
    }
    return table;
  }

  /**
   * The key of a table with a primary key, checked against the key the table records and against
   * the table's features.
   */
  private static KeyColumns upsertsOn(DeltaTable table, RowType rowType, DynamicTable shape) {
    KeyColumns key = KeyColumns.of(table.name(), rowType, shape.primaryKey());
    String mismatch =
        UpsertTables.keyMismatch(
            table.name(),
            UpsertTables.recordedKey(table.snapshot().getTableProperties()),
            key.names());
    if (mismatch != null) {
      throw new IllegalArgumentException(mismatch);
    }
    table.metadata().checkUpserts();
    if (UpsertTables.recordedKey(table.snapshot().getTableProperties()).isEmpty()) {
      // The committer settles each commit's deletes by the key the table records.
      table
          .metadata()
          .updateProperties(
              Map.of(UpsertTables.PRIMARY_KEY, UpsertTables.keyProperty(key.names())));
    }
    return key;
  }

  /**
   * The table a shape's first record creates: with column mapping so that it can evolve, and with
   * deletion vectors and the recorded key for a table with a primary key.
   */
  private static TableDefinition definition(DynamicTable shape) {
    Map<String, String> properties = new LinkedHashMap<>(shape.properties());
    properties.remove(DynamicRecordRouter.AFTER_DROP_OF);
    properties.putIfAbsent(COLUMN_MAPPING_MODE, "name");
    if (shape.upserts()) {
      properties.putIfAbsent(UpsertTables.DELETION_VECTORS, "true");
      properties.putIfAbsent(
          UpsertTables.PRIMARY_KEY, UpsertTables.keyProperty(shape.primaryKey()));
    }
    return new TableDefinition(
        DeltaTypes.toDeltaSchema(shape.rowType()), shape.partitionColumns(), properties);
  }
}
