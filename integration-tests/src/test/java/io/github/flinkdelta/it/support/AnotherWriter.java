/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
        return new Change(delta.addColumns(List.of(column)), attempt);
      } catch (RuntimeException e) {
        last = e;
        Thread.sleep(100);
      }
    }
    throw new AssertionError(
        "the other writer could not add column " + column.getName() + " to " + table, last);
  }
}
