/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.types.logical.RowType;

/**
 * Where a {@link DynamicRecord} goes and in which shape: the table's name, the type of the record's
 * row, and, for a table the sink creates, its partition columns and table properties.
 *
 * <p>The name is resolved by the sink: under a path root, {@code db.orders} is the table at {@code
 * <root>/db/orders}; in Unity Catalog, {@code catalog.schema.table}, or a shorter name completed
 * with the sink's default catalog and schema. A table that does not exist is created with this row
 * type; one that exists takes the rows of this type as the sink's schema evolution allows (new
 * columns added, types widened). A row type older than the table's (fewer columns, narrower types)
 * is written without changing the table.
 *
 * <p>Generators should hand on one instance per table and shape rather than a new one per record:
 * the sink's writers look their resolved tables up by it.
 *
 * @param name the table's name, e.g. {@code db.orders} or {@code main.sales.orders}
 * @param rowType the type of the rows of records bound for it
 * @param partitionColumns the partition columns of a table the sink creates, checked against an
 *     existing table
 * @param primaryKey the table's primary key: with one, records are upserts and deletes by key
 *     ({@code INSERT} and {@code UPDATE_AFTER} rows replace the key's row, {@code DELETE} and
 *     {@code UPDATE_BEFORE} rows delete it), written with deletion vectors as the single-table sink
 *     writes them; empty for a table that takes appended {@code INSERT} rows
 * @param properties table properties of a table the sink creates, e.g. {@code
 *     delta.checkpointInterval}
 */
@PublicEvolving
public record DynamicTable(
    String name,
    RowType rowType,
    List<String> partitionColumns,
    List<String> primaryKey,
    Map<String, String> properties)
    implements Serializable {

  public DynamicTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rowType, "rowType");
    partitionColumns = List.copyOf(partitionColumns);
    primaryKey = List.copyOf(primaryKey);
    properties = Map.copyOf(properties);
  }

  /** An unpartitioned table without a primary key, of rows of {@code rowType}. */
  public static DynamicTable of(String name, RowType rowType) {
    return new DynamicTable(name, rowType, List.of(), List.of(), Map.of());
  }

  /** This table, partitioned by {@code columns} when the sink creates it. */
  public DynamicTable withPartitionColumns(String... columns) {
    return new DynamicTable(name, rowType, List.of(columns), primaryKey, properties);
  }

  /** This table, with upserts and deletes by the primary key {@code columns}. */
  public DynamicTable withPrimaryKey(String... columns) {
    return new DynamicTable(name, rowType, partitionColumns, List.of(columns), properties);
  }

  /** This table, created with {@code tableProperties}. */
  public DynamicTable withProperties(Map<String, String> tableProperties) {
    return new DynamicTable(name, rowType, partitionColumns, primaryKey, tableProperties);
  }

  /** Whether records of this table are upserts by a primary key. */
  public boolean upserts() {
    return !primaryKey.isEmpty();
  }
}
