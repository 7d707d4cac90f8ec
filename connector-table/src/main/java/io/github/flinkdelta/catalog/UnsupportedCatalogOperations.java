/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import java.util.List;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

/**
 * What a Unity Catalog catalog of Delta tables does not keep for Flink: functions, partition
 * objects, statistics, renames and database changes. Reads answer "none" (no functions, unknown
 * statistics); changes fail with a message that says what is not supported.
 */
abstract class UnsupportedCatalogOperations extends AbstractCatalog {

  UnsupportedCatalogOperations(String name, String defaultDatabase) {
    super(name, defaultDatabase);
  }

  private CatalogException unsupported(String what) {
    return new CatalogException(
        "Catalog " + getName() + " (Unity Catalog, Delta tables) does not support " + what + ".");
  }

  @Override
  public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
    throw unsupported("ALTER DATABASE");
  }

  @Override
  public void renameTable(ObjectPath path, String newTableName, boolean ignoreIfNotExists) {
    throw unsupported("renaming tables");
  }

  // ---- partitions: Delta partitions are values in the log, not catalog objects ----

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec) {
    throw unsupported("listing partitions");
  }

  @Override
  public List<CatalogPartitionSpec> listPartitionsByFilter(
      ObjectPath path, List<Expression> filters) {
    throw unsupported("listing partitions");
  }

  @Override
  public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec)
      throws PartitionNotExistException {
    throw new PartitionNotExistException(getName(), path, spec);
  }

  @Override
  public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
    return false;
  }

  @Override
  public void createPartition(
      ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition, boolean ignore) {
    throw unsupported("creating partitions (rows create them)");
  }

  @Override
  public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignore) {
    throw unsupported("dropping partitions");
  }

  @Override
  public void alterPartition(
      ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition, boolean ignore) {
    throw unsupported("altering partitions");
  }

  // ---- functions ----

  @Override
  public List<String> listFunctions(String dbName) {
    return List.of();
  }

  @Override
  public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
    throw new FunctionNotExistException(getName(), path);
  }

  @Override
  public boolean functionExists(ObjectPath path) {
    return false;
  }

  @Override
  public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
    throw unsupported("functions");
  }

  @Override
  public void alterFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfNotExists) {
    throw unsupported("functions");
  }

  @Override
  public void dropFunction(ObjectPath path, boolean ignoreIfNotExists) {
    throw unsupported("functions");
  }

  // ---- statistics: unknown, as the planner expects when a catalog keeps none ----

  @Override
  public CatalogTableStatistics getTableStatistics(ObjectPath path) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public CatalogTableStatistics getPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getPartitionColumnStatistics(
      ObjectPath path, CatalogPartitionSpec spec) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public void alterTableStatistics(
      ObjectPath path, CatalogTableStatistics statistics, boolean ignoreIfNotExists) {
    throw unsupported("storing statistics");
  }

  @Override
  public void alterTableColumnStatistics(
      ObjectPath path, CatalogColumnStatistics statistics, boolean ignoreIfNotExists) {
    throw unsupported("storing statistics");
  }

  @Override
  public void alterPartitionStatistics(
      ObjectPath path,
      CatalogPartitionSpec spec,
      CatalogTableStatistics statistics,
      boolean ignoreIfNotExists) {
    throw unsupported("storing statistics");
  }

  @Override
  public void alterPartitionColumnStatistics(
      ObjectPath path,
      CatalogPartitionSpec spec,
      CatalogColumnStatistics statistics,
      boolean ignoreIfNotExists) {
    throw unsupported("storing statistics");
  }
}
