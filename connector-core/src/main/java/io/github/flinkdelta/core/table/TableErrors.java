package io.github.flinkdelta.core.table;

import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.config.DeltaSinkOptions;

/** Messages for what can go wrong with a table, each saying what happened and what to do. */
final class TableErrors {

  private TableErrors() {}

  static String tableNotFound(TableReference table) {
    return String.format(
        "There is no %s. Create it first, or set '%s' to true so the sink creates it from its row"
            + " type.",
        table.description(), DeltaSinkOptions.CREATE_IF_MISSING.key());
  }
}
