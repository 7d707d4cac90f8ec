/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.schema.TypeWidenings;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.sink.dynamic.DynamicTables;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.RenameColumnEvent;
import org.apache.flink.cdc.common.event.SchemaChangeEvent;
import org.apache.flink.cdc.common.event.SchemaChangeEventType;
import org.apache.flink.cdc.common.exceptions.SchemaEvolveException;
import org.apache.flink.cdc.common.exceptions.UnsupportedSchemaChangeEventException;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.sink.MetadataApplier;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Delta sink's side of Flink CDC's schema coordinator. It creates a table when its {@link
 * CreateTableEvent} comes, so that a source table without rows still lands as an empty Delta table,
 * and checks every other change against the Delta table before Flink CDC lets it through: a type
 * Delta does not widen to, or dropping a column of the table's key or partition columns, is refused
 * here as unsupported, and Flink CDC's {@code schema.change.behavior} decides what happens: {@code
 * try_evolve} goes on without the change (its rows coerced to the table's schema), the others fail
 * the pipeline with the refusal's reason.
 *
 * <p>Renamed and dropped columns are changed here, through column mapping, when the coordinator
 * applies the change: the table then follows the coordinator's schemas even when, after a failure,
 * the coordinator does not hand a change it applied before on to the sink again. Rows of the old
 * shape still on their way are written by their columns' former names. Added columns are added here
 * too, at the place the source gives them, and widened types are evolved by the sink's writers at
 * the first row of the new shape (see {@link FlinkCdcEvents}); the sink's own copies of these
 * changes find them done. No row is committed in a version whose schema lacks its columns, and none
 * of the old shape is lost.
 */
final class DeltaMetadataApplier implements MetadataApplier {

  private static final long serialVersionUID = 1L;

  /** The changes the sink applies: every type Flink CDC 3.2 defines. */
  static final Set<SchemaChangeEventType> SUPPORTED =
      Set.copyOf(EnumSet.allOf(SchemaChangeEventType.class));

  private final FlinkCdcEvents events;
  private final DynamicTables tables;
  private Set<SchemaChangeEventType> accepted = SUPPORTED;

  DeltaMetadataApplier(FlinkCdcEvents events, DynamicTables tables) {
    this.events = events;
    this.tables = tables;
  }

  @Override
  public MetadataApplier setAcceptedSchemaEvolutionTypes(Set<SchemaChangeEventType> types) {
    accepted = Set.copyOf(types);
    return this;
  }

  @Override
  public boolean acceptsSchemaEvolutionType(SchemaChangeEventType type) {
    return accepted.contains(type);
  }

  @Override
  public Set<SchemaChangeEventType> getSupportedSchemaEvolutionTypes() {
    return SUPPORTED;
  }

  @Override
  public void applySchemaChange(SchemaChangeEvent change) throws SchemaEvolveException {
    String table = events.tableName(change.tableId());
    try {
      if (change instanceof CreateTableEvent create) {
        tables.prepare(events.tableOf(create.tableId(), create.getSchema()));
      } else if (change instanceof AddColumnEvent add) {
        if (tables.schemaEvolution(table) == SchemaEvolution.NONE) {
          throw new IllegalArgumentException(
              String.format(
                  "Flink CDC adds a column to table %s, whose 'sink.schema-evolution' is 'none'."
                      + " Set it to 'add-columns' or 'widen' to take the column.",
                  table));
        }
        for (AddColumnEvent.ColumnWithPosition added : add.getAddedColumns()) {
          Column column = added.getAddColumn();
          tables.addColumn(
              table,
              column.getName(),
              FlinkCdcEvents.typeOf(column.getType()),
              before(table, added));
        }
      } else if (change instanceof AlterColumnTypeEvent alter) {
        checkWidens(table, alter);
      } else if (change instanceof DropColumnEvent drop) {
        checkKeeps(table, drop.getDroppedColumnNames());
        for (String column : drop.getDroppedColumnNames()) {
          tables.apply(TableChange.dropColumn(table, column));
        }
      } else if (change instanceof RenameColumnEvent rename) {
        for (Map.Entry<String, String> column : rename.getNameMapping().entrySet()) {
          tables.apply(TableChange.renameColumn(table, column.getKey(), column.getValue()));
        }
      } else {
        throw new IllegalArgumentException(
            String.format(
                "Flink CDC schema change %s of table %s is not one the Delta sink applies",
                change.getType(), table));
      }
    } catch (IllegalArgumentException e) {
      // A change Delta cannot take: under 'try_evolve' Flink CDC goes on without it.
      throw new UnsupportedSchemaChangeEventException(change, e.getMessage(), e);
    } catch (RuntimeException | IOException e) {
      throw new SchemaEvolveException(change, e.getMessage(), e);
    }
  }

  /**
   * The table's column an added column goes right before, as its position at the source says; null
   * for the end, also when the column the position names is not in the table.
   */
  private String before(String table, AddColumnEvent.ColumnWithPosition added) {
    List<String> columns =
        tables.current(table).map(current -> current.rowType().getFieldNames()).orElse(List.of());
    int existing = -1;
    for (int i = 0; i < columns.size() && added.getExistedColumnName() != null; i++) {
      if (columns.get(i).equalsIgnoreCase(added.getExistedColumnName())) {
        existing = i;
      }
    }
    int at =
        switch (added.getPosition()) {
          case FIRST -> 0;
          case LAST -> -1;
          case BEFORE -> existing;
          case AFTER -> existing < 0 ? -1 : existing + 1;
        };
    return at < 0 || at >= columns.size() ? null : columns.get(at);
  }

  /** Each altered column's new type is one Delta widens the table's column to. */
  private void checkWidens(String table, AlterColumnTypeEvent alter) {
    Optional<DynamicTables.Current> current = tables.current(table);
    if (current.isEmpty()) {
      return;
    }
    RowType columns = current.get().rowType();
    boolean widens = tables.schemaEvolution(table) == SchemaEvolution.WIDEN;
    for (Map.Entry<String, org.apache.flink.cdc.common.types.DataType> altered :
        alter.getTypeMapping().entrySet()) {
      String column = altered.getKey();
      int field = columns.getFieldIndex(column);
      if (field < 0) {
        continue;
      }
      LogicalType from = columns.getTypeAt(field);
      LogicalType to = FlinkCdcEvents.typeOf(altered.getValue());
      if (DeltaTypes.toDeltaType(from).equivalent(DeltaTypes.toDeltaType(to))) {
        continue;
      }
      if (!widens) {
        throw new IllegalArgumentException(
            String.format(
                "Flink CDC changes column '%s' of table %s from %s to %s, and the table's"
                    + " 'sink.schema-evolution' is not 'widen'. Set it to 'widen' to widen"
                    + " columns.",
                column, current.get().name(), from, to));
      }
      if (!TypeWidenings.widensTo(DeltaTypes.toDeltaType(from), DeltaTypes.toDeltaType(to))) {
        throw new IllegalArgumentException(
            String.format(
                "Flink CDC changes column '%s' of table %s from %s to %s, which Delta does not"
                    + " widen to: its files could not be read as the new type. Keep the column's"
                    + " type in the source, or route the table to a new Delta table.",
                column, current.get().name(), from, to));
      }
    }
  }

  /** No dropped column is one of the table's key or partition columns. */
  private void checkKeeps(String table, List<String> dropped) {
    Optional<DynamicTables.Current> current = tables.current(table);
    if (current.isEmpty()) {
      return;
    }
    for (String column : dropped) {
      boolean key = current.get().primaryKey().contains(column);
      if (key || current.get().partitionColumns().contains(column)) {
        throw new IllegalArgumentException(
            String.format(
                "Flink CDC drops column '%s' of table %s, which is in the table's %s: the Delta"
                    + " sink cannot drop it. Keep the column in the source, or route the table to"
                    + " a new Delta table.",
                column, current.get().name(), key ? "primary key" : "partition columns"));
      }
    }
  }
}
