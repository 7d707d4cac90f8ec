/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.commit.SnapshotCache;
import io.github.flinkdelta.core.commit.TableCommitter;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.schema.SchemaChanges;
import io.github.flinkdelta.core.schema.SchemaMerge;
import io.github.flinkdelta.core.upsert.UpsertTables;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of a table's metadata through its committer: its schema (a merge with the rows a writer
 * brings, tried again when another writer changed the table meanwhile, with the column mapping and
 * type widening Delta needs for it) and the deletion vectors upserts need.
 */
final class MetadataUpdates {

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
   * Evolves the table so that rows of {@code rowType} fit it (see {@code DeltaTable.evolveFor}).
   */
  SchemaMerge evolveFor(
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
   * Commits {@code schema} as the table's schema (see {@code DeltaTable.evolveSchema}).
   *
   * @param changes the changes a merge made, named when the table may not get column mapping
   */
  long evolveSchema(StructType schema, boolean enableColumnMapping, List<String> changes) {
    Map<String, String> properties = snapshots.current().getTableProperties();
    String mode = properties.getOrDefault(COLUMN_MAPPING_MODE, "none");
    if ("none".equalsIgnoreCase(mode)) {
      if (!enableColumnMapping) {
        throw new IllegalStateException(TableErrors.columnMappingNeeded(tableName, changes));
      }
      long upgraded = committer.updateMetadata(null, Map.of(COLUMN_MAPPING_MODE, "name"));
      LOG.info("Upgraded {} to column mapping mode 'name' at version {}", tableName, upgraded);
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

  /** Fails when the table's features forbid upserts (see {@code DeltaTable.checkUpserts}). */
  void checkUpserts() {
    List<String> problems =
        UpsertTables.problems(tableName, snapshots.current().getTableProperties());
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
  }

  /**
   * Makes the table take upserts (see {@code DeltaTable.enableUpserts}).
   *
   * @return the version that enabled deletion vectors, or -1 when they were on
   */
  long enableUpserts() {
    checkUpserts();
    if (UpsertTables.deletionVectorsOn(snapshots.current().getTableProperties())) {
      return -1;
    }
    long version = committer.updateMetadata(null, Map.of(UpsertTables.DELETION_VECTORS, "true"));
    LOG.info("Enabled deletion vectors on {} in version {} for upserts", tableName, version);
    return version;
  }
}
