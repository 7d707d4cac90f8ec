/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.maintenance;

import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.github.flinkdelta.uc.internal.UnityCatalogTableReference;
import java.util.Map;
import org.apache.flink.api.common.accumulators.ListAccumulator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.Collector;

/**
 * Runs the {@link MaintenanceAction} on one table, named by its path or its Unity Catalog name, and
 * reports one line in the job's accumulator {@link #LINES}, which the client reads when the job
 * ends; a table whose maintenance fails is reported as failed, and the others go on.
 */
final class MaintenanceTask extends RichFlatMapFunction<String, Void> {

  private static final long serialVersionUID = 1L;

  /** Starts the line of a table whose maintenance failed. */
  static final String FAILED = "FAILED";

  /** The accumulator of the tables' lines. */
  static final String LINES = "delta-maintenance-lines";

  private final MaintenanceAction action;
  private final Map<String, String> options;

  MaintenanceTask(MaintenanceAction action, Map<String, String> options) {
    this.action = action;
    this.options = Map.copyOf(options);
  }

  private transient ListAccumulator<String> lines;

  @Override
  public void open(OpenContext context) {
    lines = new ListAccumulator<>();
    getRuntimeContext().addAccumulator(LINES, lines);
  }

  @Override
  public void flatMap(String table, Collector<Void> out) {
    lines.add(lineOf(table));
  }

  private String lineOf(String table) {
    try (DeltaTable delta =
        DeltaTable.open(
            TableRequest.of(
                reference(table, options),
                HadoopConfigurations.of(HadoopOptions.from("Table maintenance", options))))) {
      return table + ": " + action.run(delta);
    } catch (RuntimeException e) {
      return FAILED + " " + table + ": " + e.getMessage();
    }
  }

  /** A path (a URI or an absolute path) names a path table; anything else a catalog table. */
  static TableReference reference(String table, Map<String, String> options) {
    if (table.contains("://") || table.startsWith("/")) {
      return new PathTableLocator(table);
    }
    return new UnityCatalogTableReference(
        UnityCatalogOptions.connection(Configuration.fromMap(options), "Table " + table),
        UnityCatalogTableName.parse(table));
  }
}
