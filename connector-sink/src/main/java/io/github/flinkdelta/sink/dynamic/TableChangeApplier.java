/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import java.io.IOException;
import org.apache.flink.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@link TableChange}s a generator hands on. Renames and drops of columns are committed
 * at once, each in a version of its own, through column mapping; the table's open files of the old
 * shape stay valid (their columns are found by physical name) and are committed with the
 * checkpoint. A change sent again after a failure finds the table changed and changes nothing; rows
 * of the old shape sent again find their columns by the former names the change recorded.
 * Truncating and dropping tables follow {@link DynamicSinkOptions#TABLE_EVENTS}; a truncation or
 * drop to apply is handed back to the router ({@link HeldRecords}), which has it committed in
 * order.
 */
final class TableChangeApplier {

  private static final Logger LOG = LoggerFactory.getLogger(TableChangeApplier.class);

  private final DynamicSinkConfig config;
  private final DynamicTableResolver resolver;
  private final TableDrops drops;

  TableChangeApplier(DynamicSinkConfig config, DynamicTableResolver resolver) {
    this.config = config;
    this.resolver = resolver;
    this.drops = new TableDrops(config);
  }

  /**
   * Applies {@code change}.
   *
   * @param openFiles the table's open files in this writer, or null when it has none
   * @return the truncation or drop of the table to commit after the rows before the change, whose
   *     records that follow wait for it; null when nothing waits
   */
  HeldRecords.TableEvent apply(TableChange change, TableFiles openFiles) throws IOException {
    Configuration options = config.optionsOf(change.table());
    boolean enableColumnMapping =
        options.get(DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING);
    if (change instanceof TableChange.RenameColumn rename) {
      changeColumns(
          change,
          openFiles,
          table -> table.metadata().renameColumn(rename.from(), rename.to(), enableColumnMapping));
    } else if (change instanceof TableChange.DropColumn drop) {
      changeColumns(
          change,
          openFiles,
          table -> table.metadata().dropColumn(drop.column(), enableColumnMapping));
    } else {
      return tableEvent(change, options.get(DynamicSinkOptions.TABLE_EVENTS));
    }
    return null;
  }

  /** A change of a table's columns through {@link DeltaTable}. */
  private interface ColumnChange {
    long applyTo(DeltaTable table);
  }

  private void changeColumns(TableChange change, TableFiles openFiles, ColumnChange columns)
      throws IOException {
    try (var loader = ConnectorClassLoader.enter()) {
      if (openFiles != null) {
        // Files of the old shape are completed first: the next rows open files of the new one.
        openFiles.complete();
      }
      long version;
      try (DeltaTable table = resolver.open(change.table())) {
        version = columns.applyTo(table);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new IllegalStateException(
            "Dynamic Delta sink cannot apply " + change + ": " + e.getMessage(), e);
      }
      if (version < 0) {
        LOG.info("{} is in table {} already", change, change.table());
      }
    }
    resolver.forget(change.table());
  }

  private HeldRecords.TableEvent tableEvent(TableChange change, TableEventPolicy policy) {
    boolean truncation = change instanceof TableChange.TruncateTable;
    String event = truncation ? "truncated" : "dropped";
    String table = config.names().fullName(change.table());
    if (policy == TableEventPolicy.APPLY) {
      String tableId = drops.idOf(change.table());
      if (tableId == null) {
        LOG.info("Table {} was {} at the source, and holds nothing here yet", table, event);
        return null;
      }
      LOG.info(
          "Table {} was {} at the source; it is {} after the checkpoint's rows",
          table,
          event,
          event);
      return truncation
          ? HeldRecords.TableEvent.truncation(change.table())
          : HeldRecords.TableEvent.drop(change.table(), tableId);
    }
    if (policy == TableEventPolicy.IGNORE) {
      LOG.warn(
          "Table {} was {} at the source; the dynamic Delta sink keeps its rows, as '{}' = {}"
              + " says",
          table,
          event,
          DynamicSinkOptions.TABLE_EVENTS.key(),
          policy);
      return null;
    }
    throw new IllegalStateException(
        String.format(
            "Table %s was %s at the source, and the dynamic Delta sink refuses table events as"
                + " '%s' = %s says: nothing of it was applied. Set '%s' = %s to keep the table's"
                + " rows and go on, or %s to %s it in order with its rows, or remove the event"
                + " from the stream.",
            table,
            event,
            DynamicSinkOptions.TABLE_EVENTS.key(),
            policy,
            DynamicSinkOptions.TABLE_EVENTS.key(),
            TableEventPolicy.IGNORE,
            TableEventPolicy.APPLY,
            truncation ? "truncate" : "drop"));
  }
}
