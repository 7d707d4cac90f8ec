/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.commit.SnapshotCache;
import io.github.flinkdelta.core.commit.TableCommitter;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.schema.ColumnChanges;
import io.github.flinkdelta.core.schema.FormerColumns;
import io.github.flinkdelta.core.schema.SchemaChanges;
import io.github.flinkdelta.core.schema.SchemaMerge;
import io.github.flinkdelta.core.upsert.UpsertTables;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of a table's metadata through its committer, each in a version of its own: its schema (a
 * merge with the rows a writer brings, tried again when another writer changed the table meanwhile,
 * with the column mapping and type widening Delta needs for it), renames and drops of columns,
 * table properties, and the deletion vectors upserts need. Reached through {@link
 * DeltaTable#metadata()}.
 */
@Internal
public final class MetadataUpdates {

  /** Logged as the table, whose metadata this changes. */
  private static final Logger LOG = LoggerFactory.getLogger(DeltaTable.class);

  /** Schema changes of one evolution tried again after another writer changed the table. */
  static final int MAX_EVOLUTION_ATTEMPTS = 5;

  static final String TYPE_WIDENING = "delta.enableTypeWidening";

  static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  static final String MAX_COLUMN_ID = "delta.columnMapping.maxColumnId";

  private final String tableName;
  private final SnapshotCache snapshots;
  private final TableCommitter committer;
  private final Supplier<TableDefinition> definition;

  MetadataUpdates(
      String tableName,
      SnapshotCache snapshots,
      TableCommitter committer,
      Supplier<TableDefinition> definition) {
    this.tableName = tableName;
    this.snapshots = snapshots;
    this.committer = committer;
    this.definition = definition;
  }

  /**
   * Evolves the table as {@code mode} allows so that rows of {@code rowType} fit it, before any of
   * them is written (see {@link SchemaMerge}). Nothing is committed when they fit already.
   *
   * @param expectedPartitionColumns the partition columns the sink was configured with; empty to
   *     take the table's
   * @param enableColumnMapping whether a table without column mapping may be upgraded to it
   * @return the merge that was applied; without changes when the table was left as it was
   * @throws IllegalArgumentException listing every difference {@code mode} does not allow
   * @throws IllegalStateException when the schema must change on a table without column mapping and
   *     {@code enableColumnMapping} is off
   */
  public SchemaMerge evolveFor(
      RowType rowType,
      List<String> expectedPartitionColumns,
      SchemaEvolution mode,
      boolean enableColumnMapping) {
    for (int attempt = 1; ; attempt++) {
      SchemaMerge merge =
          SchemaMerge.of(tableName, definition.get(), rowType, expectedPartitionColumns, mode);
      if (!merge.changesTable()) {
        return merge;
      }
      try {
        long version = evolveSchema(merge.schema(), enableColumnMapping, merge.changes());
        LOG.info("Evolved {} at version {}: {}", tableName, version, merge.changes());
        return merge;
      } catch (ConcurrentWriteException e) {
        // Another writer changed the table meanwhile: merge again with what it is now.
        if (attempt >= MAX_EVOLUTION_ATTEMPTS) {
          throw e;
        }
        snapshots.reload();
      }
    }
  }

  /**
   * Adds nullable columns at the end of the schema, in one table version.
   *
   * @return the version that holds the new schema
   * @throws IllegalArgumentException when a column is NOT NULL or exists already
   */
  public long addColumns(List<StructField> columns) {
    return evolveSchema(
        SchemaChanges.withAddedColumns(tableName, snapshots.current().getSchema(), columns), true);
  }

  /**
   * Adds nullable column {@code column} right before column {@code before} (at the end when null),
   * in one version, made again after another writer changed the table meanwhile.
   *
   * @param enableColumnMapping whether a table without column mapping may be upgraded to it
   * @return the version that holds the column, or -1 when the table has a column of its name
   * @throws IllegalArgumentException when the column is NOT NULL or the table has no {@code before}
   */
  public long addColumn(StructField column, String before, boolean enableColumnMapping) {
    for (int attempt = 1; ; attempt++) {
      StructType schema = snapshots.current().getSchema();
      if (schema.fieldNames().stream().anyMatch(name -> name.equalsIgnoreCase(column.getName()))) {
        return -1;
      }
      try {
        long version =
            evolveSchema(
                SchemaChanges.withColumnBefore(tableName, schema, column, before),
                enableColumnMapping);
        LOG.info("Added column {} to {} at version {}", column.getName(), tableName, version);
        return version;
      } catch (ConcurrentWriteException e) {
        if (attempt >= MAX_EVOLUTION_ATTEMPTS) {
          throw e;
        }
        snapshots.reload();
      }
    }
  }

  /**
   * Commits {@code schema} as the table's schema: in the same version, Delta's type widening is
   * enabled when a column's type changes; before it, a table without column mapping is upgraded to
   * {@code name} mode in a version of its own, which Delta needs to change a schema.
   *
   * @param enableColumnMapping whether a table without column mapping may be upgraded to it
   * @return the version that holds the new schema
   * @throws IllegalStateException when the table has no column mapping and may not get it
   */
  public long evolveSchema(StructType schema, boolean enableColumnMapping) {
    return evolveSchema(schema, enableColumnMapping, List.of());
  }

  /**
   * Renames top-level column {@code from} to {@code to} through column mapping, in one version: its
   * files keep their physical column name, so every row reads under the new name, and rows that
   * still carry the old name are matched by it ({@link FormerColumns}).
   *
   * @param enableColumnMapping whether a table without column mapping may be upgraded to it
   * @return the version that holds the rename, or -1 when the table shows it applied already
   * @throws IllegalArgumentException when the table has neither column, or {@code from} is a
   *     partition column
   */
  public long renameColumn(String from, String to, boolean enableColumnMapping) {
    return changeColumns(
        "rename column " + from + " to " + to,
        enableColumnMapping,
        table ->
            ColumnChanges.rename(
                tableName, table.schema(), table.partitionColumns(), table.properties(), from, to));
  }

  /**
   * Drops top-level column {@code column} through column mapping, in one version; its values stay
   * in the files, unread, until they are rewritten.
   *
   * @param enableColumnMapping whether a table without column mapping may be upgraded to it
   * @return the version that holds the drop, or -1 when the table has no such column
   * @throws IllegalArgumentException when it is a partition column or the only column
   */
  public long dropColumn(String column, boolean enableColumnMapping) {
    return changeColumns(
        "drop column " + column,
        enableColumnMapping,
        table ->
            ColumnChanges.drop(
                tableName, table.schema(), table.partitionColumns(), table.properties(), column));
  }

  /** The names the table's columns had before this library renamed or dropped them. */
  public FormerColumns formerColumns() {
    return FormerColumns.of(snapshots.current().getTableProperties());
  }

  /**
   * Sets table properties in one version without data, e.g. to enable a table feature.
   *
   * @return the version that holds them
   */
  public long updateProperties(Map<String, String> properties) {
    return committer.updateMetadata(null, properties);
  }

  /**
   * Commits {@code schema} as the table's schema.
   *
   * @param changes the changes a merge made, named when the table may not get column mapping
   */
  private long evolveSchema(StructType schema, boolean enableColumnMapping, List<String> changes) {
    Map<String, String> properties = snapshots.current().getTableProperties();
    if (ensureColumnMapping(enableColumnMapping, changes)) {
      // The upgrade gave every column a physical name and id: carry them into the new schema.
      schema = SchemaChanges.withColumnMappingOf(schema, snapshots.current().getSchema());
    }
    // Kernel would give new columns their logical names as physical names, which a dropped or
    // renamed column's files may still hold: each gets a name and an id of its own instead.
    schema =
        SchemaChanges.withNewColumnsMapped(
            schema,
            Long.parseLong(
                snapshots.current().getTableProperties().getOrDefault(MAX_COLUMN_ID, "0")));
    boolean typesChange = SchemaChanges.changesTypes(snapshots.current().getSchema(), schema);
    Map<String, String> widening =
        typesChange && !"true".equalsIgnoreCase(properties.get(TYPE_WIDENING))
            ? Map.of(TYPE_WIDENING, "true")
            : Map.of();
    return committer.updateMetadata(schema, widening);
  }

  /**
   * Commits the column change {@code change} makes of the table's definition, in a version of its
   * own, made again after another writer changed the table (see {@code DeltaTable.renameColumn}).
   *
   * @param description the change, as messages name it
   * @return the version that holds it, or -1 when the table shows it applied already
   */
  private long changeColumns(
      String description,
      boolean enableColumnMapping,
      Function<TableDefinition, Optional<ColumnChanges.Change>> change) {
    for (int attempt = 1; ; attempt++) {
      if (change.apply(definition.get()).isEmpty()) {
        return -1;
      }
      ensureColumnMapping(enableColumnMapping, List.of(description));
      Optional<ColumnChanges.Change> mapped = change.apply(definition.get());
      if (mapped.isEmpty()) {
        return -1;
      }
      try {
        long version = committer.updateMetadata(mapped.get().schema(), mapped.get().properties());
        LOG.info("Changed {} at version {}: {}", tableName, version, description);
        return version;
      } catch (ConcurrentWriteException e) {
        if (attempt >= MAX_EVOLUTION_ATTEMPTS) {
          throw e;
        }
        snapshots.reload();
      }
    }
  }

  /**
   * Upgrades a table without column mapping to {@code name} mode, when allowed to.
   *
   * @param changes the changes that need it, named when the table may not get it
   * @return whether it upgraded the table
   */
  private boolean ensureColumnMapping(boolean enableColumnMapping, List<String> changes) {
    String mode =
        snapshots.current().getTableProperties().getOrDefault(COLUMN_MAPPING_MODE, "none");
    if (!"none".equalsIgnoreCase(mode)) {
      return false;
    }
    if (!enableColumnMapping) {
      throw new IllegalStateException(TableErrors.columnMappingNeeded(tableName, changes));
    }
    long upgraded = committer.updateMetadata(null, Map.of(COLUMN_MAPPING_MODE, "name"));
    LOG.info("Upgraded {} to column mapping mode 'name' at version {}", tableName, upgraded);
    return true;
  }

  /**
   * Fails when the table's features forbid upserts (see {@link UpsertTables#problems}).
   *
   * @throws IllegalArgumentException naming the table property that stands in the way
   */
  public void checkUpserts() {
    List<String> problems =
        UpsertTables.problems(tableName, snapshots.current().getTableProperties());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
  }

  /**
   * Makes the table take upserts: refuses tables whose features a commit with deletion vectors
   * would break, and enables deletion vectors (in a version of its own) when they are off.
   *
   * @return the version that enabled them, or -1 when they were on
   * @throws IllegalArgumentException naming the table property that stands in the way
   */
  public long enableUpserts() {
    checkUpserts();
    if (UpsertTables.deletionVectorsOn(snapshots.current().getTableProperties())) {
      return -1;
    }
    long version = committer.updateMetadata(null, Map.of(UpsertTables.DELETION_VECTORS, "true"));
    LOG.info("Enabled deletion vectors on {} in version {} for upserts", tableName, version);
    return version;
  }
}
