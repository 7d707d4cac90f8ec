/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import io.github.flinkdelta.sink.dynamic.TableNameTemplate;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DataChangeEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.RenameColumnEvent;
import org.apache.flink.cdc.common.event.SchemaChangeEvent;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.utils.SchemaUtils;
import org.apache.flink.cdc.runtime.serializer.TableIdSerializer;
import org.apache.flink.cdc.runtime.serializer.schema.SchemaSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DynamicRecordGenerator} for Flink CDC's change events: each table's events go to the
 * table a template names from its {@link TableId}, with the columns, primary key and partition keys
 * of its {@link CreateTableEvent}, the schema changes after it applied in order with its rows.
 *
 * <ul>
 *   <li>Inserts write the new row; updates write it as the key's new row, after deleting the old
 *       row's key when the key changed; deletes delete the old row's key; replaces write the new
 *       row. A table without a primary key appends its inserts (and replaces), and an update or
 *       delete of it fails naming the table.
 *   <li>Added columns and altered column types change the shape of the table's next rows, and the
 *       sink evolves the table to it as {@code sink.schema-evolution} allows (altered types need
 *       {@code widen}, and only widen by Delta's rules); dropped and renamed columns are table
 *       changes applied through column mapping, after the rows before them.
 *   <li>Types map as {@link CdcFields} says.
 * </ul>
 *
 * <p>A table's rows can come only after its {@link CreateTableEvent}, as Flink CDC sends them. The
 * tables' schemas are kept in the sink's checkpoints: a job restored from one takes the rows of the
 * tables it knew without their {@link CreateTableEvent}s again.
 */
@PublicEvolving
public final class FlinkCdcEvents
    implements DynamicRecordGenerator<Event>, DynamicRecordGenerator.Checkpointed {

  private static final long serialVersionUID = 1L;

  /**
   * The format of {@link #snapshot()}: a version, then per table its id, how many schemas it has
   * had, and its schema.
   */
  private static final int SNAPSHOT_VERSION = 2;

  /** The option that marks a schema {@link LatestSchemas} took from Flink CDC's coordinator. */
  private static final String COORDINATOR_SCHEMA = "flink-delta.coordinator-schema";

  private static final Logger LOG = LoggerFactory.getLogger(FlinkCdcEvents.class);

  private final String template;
  private final TableNameTemplate names;
  private final Map<String, List<String>> partitionColumns;
  private final Map<String, String> tableProperties;

  private transient Map<TableId, Shape> shapes;

  private FlinkCdcEvents(
      String template,
      Map<String, List<String>> partitionColumns,
      Map<String, String> tableProperties) {
    this.template = Objects.requireNonNull(template, "template");
    this.partitionColumns = Map.copyOf(partitionColumns);
    this.tableProperties = Map.copyOf(tableProperties);
    this.names =
        TableNameTemplate.of(
            template, List.of("namespace", "schema", "table"), "the parts of a Flink CDC table id");
  }

  /**
   * Events to the tables {@code template} names from each event's table id: {@code {namespace}},
   * {@code {schema}} (a MySQL database) and {@code {table}}; e.g. {@code "{schema}.{table}"}.
   */
  public static FlinkCdcEvents tables(String template) {
    return new FlinkCdcEvents(template, Map.of(), Map.of());
  }

  /**
   * These events, table {@code table} (as the template names it) created partitioned by {@code
   * columns} instead of its {@link CreateTableEvent}'s partition keys.
   */
  public FlinkCdcEvents withPartitionColumns(String table, List<String> columns) {
    Map<String, List<String>> partitions = new HashMap<>(partitionColumns);
    partitions.put(table, List.copyOf(columns));
    return new FlinkCdcEvents(template, partitions, tableProperties);
  }

  /** These events, every table created with {@code properties} (e.g. {@code delta.*} ones). */
  public FlinkCdcEvents withTableProperties(Map<String, String> properties) {
    return new FlinkCdcEvents(template, partitionColumns, properties);
  }

  @Override
  public byte[] snapshot() throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    out.writeInt(SNAPSHOT_VERSION);
    Map<TableId, Shape> known = shapes == null ? Map.of() : shapes;
    out.writeInt(known.size());
    for (Map.Entry<TableId, Shape> table : known.entrySet()) {
      TableIdSerializer.INSTANCE.serialize(table.getKey(), out);
      out.writeLong(table.getValue().changes());
      SchemaSerializer.INSTANCE.serialize(table.getValue().schema(), out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public void restore(List<byte[]> snapshots) throws IOException {
    shapes = new HashMap<>();
    // Each subtask's snapshot holds every table it knew, also those whose changes went to other
    // subtasks since: of a table's schemas, the one after the most changes is the table's.
    for (byte[] snapshot : snapshots) {
      DataInputDeserializer in = new DataInputDeserializer(snapshot);
      int version = in.readInt();
      if (version != SNAPSHOT_VERSION) {
        throw new IOException(
            "The Flink CDC tables' schemas in the checkpoint are of format "
                + version
                + ", which this version of the connector does not read");
      }
      int tables = in.readInt();
      for (int i = 0; i < tables; i++) {
        TableId id = TableIdSerializer.INSTANCE.deserialize(in);
        long changes = in.readLong();
        Schema schema = SchemaSerializer.INSTANCE.deserialize(in);
        Shape known = shapes.get(id);
        if (known == null || known.changes() < changes) {
          shapes.put(id, shape(id, schema, changes));
        }
      }
    }
  }

  /**
   * A table's schema as the sink takes it: the table, the converter of its rows, how many schemas
   * (its creation and changes) it has had, and the shape rows sent again after a restart may still
   * have (null when none differs).
   */
  private record Shape(
      Schema schema, DynamicTable table, CdcFields.Rows rows, long changes, Shape replayed) {

    Shape withReplayed(Shape earlier) {
      return new Shape(schema, table, rows, changes, earlier);
    }

    /** This shape, or the replayed one, whichever has {@code columns} columns. */
    Shape fitting(int columns) {
      if (columns == schema.getColumnCount()) {
        return this;
      }
      if (replayed != null && columns == replayed.schema().getColumnCount()) {
        return replayed;
      }
      throw new IllegalStateException(
          String.format(
              "Flink CDC sent a row of %d columns for table %s, whose schema has %d (%s): a"
                  + " schema change the sink did not see came before it. Restart the pipeline"
                  + " from the checkpoint before the last schema change of the table.",
              columns, table.name(), schema.getColumnCount(), schema.getColumnNames()));
    }
  }

  @Override
  public void generate(Event event, Output out) throws Exception {
    if (shapes == null) {
      shapes = new HashMap<>();
    }
    if (event instanceof CreateTableEvent create) {
      TableId id = create.tableId();
      Shape known = shapes.get(id);
      Schema coordinators = fromCoordinator(create.getSchema());
      if (coordinators == null) {
        shapes.put(
            id,
            shape(
                id, partitioned(id, create.getSchema()), known == null ? 1 : known.changes() + 1));
      } else {
        adoptCoordinators(id, partitioned(id, coordinators), known);
      }
    } else if (event instanceof DataChangeEvent change) {
      write(change, out);
    } else if (event instanceof SchemaChangeEvent change) {
      evolve(change, out);
    }
    // Flush events and others carry nothing for the tables.
  }

  /**
   * Takes the coordinator's schema of a table, handed on before its first event of a run ({@link
   * LatestSchemas}). Flink CDC 3.2's coordinator keeps its schemas through a task failure while the
   * job goes back to its checkpoint: the rows sent again from before a change it had applied then
   * come in the shape this generator restored, the others in the coordinator's. Both are kept, and
   * a row is read by the one with its number of columns.
   */
  private void adoptCoordinators(TableId id, Schema schema, Shape known) {
    if (known != null && known.schema().equals(schema)) {
      return;
    }
    Shape latest = shape(id, schema, known == null ? 1 : known.changes() + 1);
    if (known != null
        && known.schema().getColumnCount() == schema.getColumnCount()
        && !known.schema().getColumnDataTypes().equals(schema.getColumnDataTypes())) {
      LOG.warn(
          "Flink CDC's coordinator holds column types of table {} ({}) that the sink's checkpoint"
              + " does not ({}): rows sent again from before that change are read as the"
              + " coordinator's types.",
          latest.table().name(),
          schema.getColumnDataTypes(),
          known.schema().getColumnDataTypes());
    }
    shapes.put(id, known == null ? latest : latest.withReplayed(known));
  }

  /**
   * {@code create}'s schema as {@link LatestSchemas} hands it on from Flink CDC's coordinator,
   * marked so; an event of the marked schema.
   */
  static CreateTableEvent coordinatorSchema(TableId id, Schema schema) {
    Map<String, String> options = new HashMap<>(schema.options());
    options.put(COORDINATOR_SCHEMA, "true");
    return new CreateTableEvent(id, withOptions(schema, options));
  }

  /** The schema without its mark when {@link LatestSchemas} handed it on; null otherwise. */
  private static Schema fromCoordinator(Schema schema) {
    if (!schema.options().containsKey(COORDINATOR_SCHEMA)) {
      return null;
    }
    Map<String, String> options = new HashMap<>(schema.options());
    options.remove(COORDINATOR_SCHEMA);
    return withOptions(schema, options);
  }

  private static Schema withOptions(Schema schema, Map<String, String> options) {
    return Schema.newBuilder()
        .setColumns(schema.getColumns())
        .primaryKey(schema.primaryKeys())
        .partitionKey(schema.partitionKeys())
        .options(options)
        .comment(schema.comment())
        .build();
  }

  private void write(DataChangeEvent change, Output out) throws Exception {
    org.apache.flink.cdc.common.data.RecordData sample =
        change.after() != null ? change.after() : change.before();
    Shape shape = known(change.tableId()).fitting(sample.getArity());
    DynamicTable table = shape.table();
    switch (change.op()) {
      case INSERT -> out.collect(record(shape, change.after(), RowKind.INSERT));
      case REPLACE ->
          out.collect(
              record(
                  shape, change.after(), table.upserts() ? RowKind.UPDATE_AFTER : RowKind.INSERT));
      case UPDATE -> {
        keyed(table, "an update");
        DynamicRecord after = record(shape, change.after(), RowKind.UPDATE_AFTER);
        if (change.before() != null) {
          DynamicRecord before = record(shape, change.before(), RowKind.DELETE);
          if (keyChanged(table, before, after)) {
            out.collect(before);
          }
        }
        out.collect(after);
      }
      case DELETE -> {
        keyed(table, "a delete");
        out.collect(record(shape, change.before(), RowKind.DELETE));
      }
    }
  }

  private void evolve(SchemaChangeEvent change, Output out) throws Exception {
    Shape shape = known(change.tableId());
    String name = shape.table().name();
    Schema schema = shape.schema();
    if (change instanceof DropColumnEvent drop) {
      // All refused or none: no column of the event is dropped before one is refused.
      for (String column : drop.getDroppedColumnNames()) {
        if (schema.primaryKeys().contains(column) || schema.partitionKeys().contains(column)) {
          throw new IllegalArgumentException(
              String.format(
                  "Flink CDC drops column '%s' of table %s, which is in the table's %s: the Delta"
                      + " sink cannot drop it. Keep the column in the source, or route the table"
                      + " to a new Delta table.",
                  column,
                  name,
                  schema.primaryKeys().contains(column) ? "primary key" : "partition columns"));
        }
      }
      for (String column : drop.getDroppedColumnNames()) {
        out.apply(TableChange.dropColumn(name, column));
      }
    } else if (change instanceof RenameColumnEvent rename) {
      for (Map.Entry<String, String> column : rename.getNameMapping().entrySet()) {
        out.apply(TableChange.renameColumn(name, column.getKey(), column.getValue()));
      }
    } else if (!(change instanceof AddColumnEvent) && !(change instanceof AlterColumnTypeEvent)) {
      throw new IllegalArgumentException(
          String.format(
              "Flink CDC schema change %s of table %s is not one the Delta sink applies (it applies"
                  + " added, dropped and renamed columns and altered column types)",
              change.getType(), name));
    }
    Schema changed = SchemaUtils.applySchemaChangeEvent(schema, change);
    if (change instanceof RenameColumnEvent rename) {
      // Flink CDC renames the column, not its mentions in the keys.
      changed = renamedKeys(changed, rename.getNameMapping());
    }
    shapes.put(change.tableId(), shape(change.tableId(), changed, shape.changes() + 1));
  }

  private Shape known(TableId id) {
    Shape shape = shapes.get(id);
    if (shape == null) {
      throw new IllegalStateException(
          String.format(
              "A change event of Flink CDC table %s came before its CreateTableEvent: the Delta"
                  + " sink needs the table's schema first",
              id));
    }
    return shape;
  }

  /** {@code schema} with the partition columns given for its table, if any. */
  private Schema partitioned(TableId id, Schema schema) {
    List<String> given = partitionColumns.get(tableName(id));
    return given == null ? schema : withKeys(schema, schema.primaryKeys(), given);
  }

  private static Schema renamedKeys(Schema schema, Map<String, String> renames) {
    return withKeys(
        schema,
        schema.primaryKeys().stream().map(key -> renames.getOrDefault(key, key)).toList(),
        schema.partitionKeys().stream().map(key -> renames.getOrDefault(key, key)).toList());
  }

  private static Schema withKeys(Schema schema, List<String> primaryKey, List<String> partition) {
    return Schema.newBuilder()
        .setColumns(schema.getColumns())
        .primaryKey(primaryKey)
        .partitionKey(partition)
        .options(schema.options())
        .comment(schema.comment())
        .build();
  }

  private Shape shape(TableId id, Schema schema, long changes) {
    String name = tableName(id);
    List<Column> columns = schema.getColumns();
    CdcFields.Rows rows = new CdcFields.Rows(columns.stream().map(Column::getType).toList());
    List<LogicalType> types = rows.types();
    String[] names = columns.stream().map(Column::getName).toArray(String[]::new);
    DynamicTable table =
        DynamicTable.of(name, RowType.of(types.toArray(LogicalType[]::new), names))
            .withPrimaryKey(schema.primaryKeys().toArray(String[]::new))
            .withPartitionColumns(schema.partitionKeys().toArray(String[]::new))
            .withProperties(tableProperties);
    return new Shape(schema, table, rows, changes, null);
  }

  /**
   * The table {@code id}'s events go to, in the shape rows of {@code schema} give it: what the sink
   * creates for the table's {@link CreateTableEvent}.
   */
  DynamicTable tableOf(TableId id, Schema schema) {
    return shape(id, partitioned(id, schema), 1).table();
  }

  /** The Flink type the sink writes values of Flink CDC type {@code type} as. */
  static LogicalType typeOf(org.apache.flink.cdc.common.types.DataType type) {
    return CdcFields.of(type).type();
  }

  /** The name of the table {@code id}'s events go to. */
  String tableName(TableId id) {
    return names.fill(
        part ->
            switch (part) {
              case "namespace" -> id.getNamespace();
              case "schema" -> id.getSchemaName();
              default -> id.getTableName();
            },
        "Flink CDC table " + id);
  }

  private static DynamicRecord record(
      Shape shape, org.apache.flink.cdc.common.data.RecordData data, RowKind kind) {
    GenericRowData row = shape.rows().convert(data);
    row.setRowKind(kind);
    return new DynamicRecord(shape.table(), row);
  }

  private static void keyed(DynamicTable table, String what) {
    if (!table.upserts()) {
      throw new IllegalArgumentException(
          String.format(
              "Flink CDC sent %s of a row of table %s, which has no primary key and so appends."
                  + " Give the source table a primary key, or filter updates and deletes out of"
                  + " the pipeline for it.",
              what, table.name()));
    }
  }

  private static boolean keyChanged(DynamicTable table, DynamicRecord before, DynamicRecord after) {
    List<String> names = table.rowType().getFieldNames();
    GenericRowData old = (GenericRowData) before.row();
    GenericRowData now = (GenericRowData) after.row();
    for (String column : table.primaryKey()) {
      int field = names.indexOf(column);
      if (!Objects.deepEquals(old.getField(field), now.getField(field))) {
        return true;
      }
    }
    return false;
  }
}
