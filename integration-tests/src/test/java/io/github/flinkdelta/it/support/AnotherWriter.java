/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogTableLocator;
import java.util.List;
import java.util.Map;

/**
 * A writer of a Unity Catalog table other than the job under test, as another job or a user's
 * {@code ALTER TABLE} would be: it opens the table on its own and changes its schema while the job
 * writes it.
 */
public final class AnotherWriter {

  private static final int MAX_ATTEMPTS = 20;

  private AnotherWriter() {}

  /**
   * The version that holds the column a change added, and the attempts it took: a commit that lost
   * the race to one of the job's is tried again on the table as it is then.
   */
  public record Change(long version, int attempts) {}

  /**
   * Adds the nullable {@code column} to {@code table}; when an attempt fails, looks whether it
   * landed all the same before trying again.
   */
  public static Change addColumn(
      UnityCatalogConnection connection,
      String table,
      Map<String, String> storageOptions,
      StructField column)
      throws InterruptedException {
    RuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try (DeltaTable delta =
          DeltaTable.open(
              TableRequest.of(
                  new UnityCatalogTableLocator(connection, CatalogReads.table(connection, table)),
                  HadoopConfigurations.of(storageOptions)))) {
        if (delta.snapshot().getSchema().fieldNames().contains(column.getName())) {
          return new Change(delta.snapshot().getVersion(), attempt);
        }
        return new Change(delta.metadata().addColumns(List.of(column)), attempt);
      } catch (RuntimeException e) {
        last = e;
        Thread.sleep(100);
      }
    }
    throw new AssertionError(
        "the other writer could not add column " + column.getName() + " to " + table, last);
  }
}
