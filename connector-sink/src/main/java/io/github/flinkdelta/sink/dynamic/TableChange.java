/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A change to a table that its records' row types cannot say: a column renamed or dropped, the
 * table truncated or dropped. Sources that know of such changes (change data capture) hand them to
 * the sink in order with the records; the sink never guesses them from a missing column.
 *
 * <p>Renames and drops go through Delta column mapping: files keep their physical column names, so
 * rows written before the change read under the new name, or lose the dropped column, without any
 * file being rewritten. Truncating and dropping tables follow {@link
 * DynamicSinkOptions#TABLE_EVENTS}.
 */
@PublicEvolving
public sealed interface TableChange extends Serializable {

  /** The name of the table that changes, as {@link DynamicTable#name()} gives it. */
  String table();

  /** Column {@code from} is named {@code to} from now on. */
  static TableChange renameColumn(String table, String from, String to) {
    return new RenameColumn(table, from, to);
  }

  /** Column {@code column} leaves the table. */
  static TableChange dropColumn(String table, String column) {
    return new DropColumn(table, column);
  }

  /** Every row of the table is deleted. */
  static TableChange truncateTable(String table) {
    return new TruncateTable(table);
  }

  /** The table is dropped. */
  static TableChange dropTable(String table) {
    return new DropTable(table);
  }

  /** A top-level column renamed. */
  record RenameColumn(String table, String from, String to) implements TableChange {
    public RenameColumn {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
    }
  }

  /** A top-level column dropped. */
  record DropColumn(String table, String column) implements TableChange {
    public DropColumn {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(column, "column");
    }
  }

  /** The table's rows deleted. */
  record TruncateTable(String table) implements TableChange {
    public TruncateTable {
      Objects.requireNonNull(table, "table");
    }
  }

  /** The table dropped. */
  record DropTable(String table) implements TableChange {
    public DropTable {
      Objects.requireNonNull(table, "table");
    }
  }
}
