/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.config.TableWriteOptions;
import java.util.List;

/** Messages for what can go wrong with a table, each saying what happened and what to do. */
final class TableErrors {

  private TableErrors() {}

  static String tableNotFound(TableReference table) {
    return String.format(
        "There is no %s. Create it first, or set '%s' to true so the sink creates it from its row"
            + " type.",
        table.description(), TableWriteOptions.CREATE_IF_MISSING.key());
  }

  static String columnMappingNeeded(String table, List<String> changes) {
    return String.format(
        "Delta table %s must change its schema for the rows (%s), and Delta changes schemas only"
            + " on tables with column mapping, which it has not. Set '%s' = 'true' to let the sink"
            + " upgrade it to 'delta.columnMapping.mode' = 'name' (readers then need Delta reader"
            + " version 2), upgrade it yourself, or set '%s' = '%s' and match the table's columns.",
        table,
        changes.isEmpty() ? "a new schema" : String.join(", ", changes),
        TableWriteOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING.key(),
        TableWriteOptions.SCHEMA_EVOLUTION.key(),
        SchemaEvolution.NONE);
  }
}
