/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.cdc.common.data.RecordData;
import org.apache.flink.cdc.common.data.binary.BinaryStringData;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DataChangeEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.FlushEvent;
import org.apache.flink.cdc.common.event.RenameColumnEvent;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.types.DataType;
import org.apache.flink.cdc.common.types.DataTypes;
import org.apache.flink.cdc.runtime.typeutils.BinaryRecordDataGenerator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** Flink CDC's events as the dynamic sink's records and table changes, in their order. */
class FlinkCdcEventsTest {

  private static final TableId ORDERS = TableId.tableId("shop", "orders");
  private static final TableId CLICKS = TableId.tableId("shop", "clicks");

  private final Recorder out = new Recorder();
  private final FlinkCdcEvents events = FlinkCdcEvents.tables("cdc.{schema}_{table}");

  @Test
  void aTableWithAPrimaryKeyTakesItsChangesAsUpsertsAndDeletesByKey() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.VARCHAR(20))
            .primaryKey("id")
            .partitionKey("item")
            .build();
    events.generate(new CreateTableEvent(ORDERS, schema), out);
    events.generate(DataChangeEvent.insertEvent(ORDERS, orders(schema, 1, "pen")), out);
    events.generate(
        DataChangeEvent.updateEvent(ORDERS, orders(schema, 1, "pen"), orders(schema, 1, "ink")),
        out);
    // The key changed: the old key goes before the new row comes.
    events.generate(
        DataChangeEvent.updateEvent(ORDERS, orders(schema, 1, "ink"), orders(schema, 2, "ink")),
        out);
    events.generate(DataChangeEvent.deleteEvent(ORDERS, orders(schema, 2, "ink")), out);
    events.generate(DataChangeEvent.replaceEvent(ORDERS, orders(schema, 3, "cap")), out);
    events.generate(new FlushEvent(ORDERS), out);

    assertThat(out.records)
        .extracting(record -> record.table().name())
        .containsOnly("cdc.shop_orders");
    DynamicRecord first = out.records.get(0);
    assertThat(first.table().primaryKey()).containsExactly("id");
    assertThat(first.table().partitionColumns()).containsExactly("item");
    assertThat(first.table().rowType().getFields())
        .extracting(field -> field.getType())
        .containsExactly(new IntType(false), new VarCharType(VarCharType.MAX_LENGTH));
    assertThat(out.rows())
        .containsExactly(
            row(RowKind.INSERT, 1, "pen"),
            row(RowKind.UPDATE_AFTER, 1, "ink"),
            row(RowKind.DELETE, 1, "ink"),
            row(RowKind.UPDATE_AFTER, 2, "ink"),
            row(RowKind.DELETE, 2, "ink"),
            row(RowKind.UPDATE_AFTER, 3, "cap"));
    assertThat(out.changes).isEmpty();
  }

  @Test
  void schemaChangesReshapeTheRowsAfterThemAndRenamesAndDropsAreTableChangesInOrder()
      throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("clicks", DataTypes.INT())
            .physicalColumn("page", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.generate(new CreateTableEvent(CLICKS, schema), out);
    events.generate(
        DataChangeEvent.insertEvent(
            CLICKS, record(schema, 1, 10, BinaryStringData.fromString("a"))),
        out);
    events.generate(
        new AddColumnEvent(
            CLICKS,
            List.of(AddColumnEvent.last(Column.physicalColumn("referrer", DataTypes.STRING())))),
        out);
    events.generate(new AlterColumnTypeEvent(CLICKS, Map.of("clicks", DataTypes.BIGINT())), out);
    events.generate(new RenameColumnEvent(CLICKS, Map.of("page", "url")), out);
    events.generate(new DropColumnEvent(CLICKS, List.of("referrer")), out);
    Schema now =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("clicks", DataTypes.BIGINT())
            .physicalColumn("url", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.generate(
        DataChangeEvent.insertEvent(CLICKS, record(now, 2, 20L, BinaryStringData.fromString("b"))),
        out);

    assertThat(out.order)
        .containsExactly(
            "record cdc.shop_clicks",
            "change RenameColumn[table=cdc.shop_clicks, from=page, to=url]",
            "change DropColumn[table=cdc.shop_clicks, column=referrer]",
            "record cdc.shop_clicks");
    DynamicRecord last = out.records.get(1);
    assertThat(last.table().rowType().getFieldNames()).containsExactly("id", "clicks", "url");
    assertThat(last.table().rowType().getTypeAt(1)).isEqualTo(new BigIntType());
    assertThat(out.rows())
        .containsExactly(row(RowKind.INSERT, 1, 10, "a"), row(RowKind.INSERT, 2, 20L, "b"));
  }

  @Test
  void aTableWithoutAPrimaryKeyAppendsAndRefusesUpdatesNamingTheTable() throws Exception {
    Schema schema = Schema.newBuilder().physicalColumn("page", DataTypes.STRING()).build();
    events.generate(new CreateTableEvent(CLICKS, schema), out);
    RecordData page = record(schema, BinaryStringData.fromString("a"));
    events.generate(DataChangeEvent.insertEvent(CLICKS, page), out);
    events.generate(DataChangeEvent.replaceEvent(CLICKS, page), out);

    assertThat(out.rows()).containsExactly(row(RowKind.INSERT, "a"), row(RowKind.INSERT, "a"));
    assertThat(out.records.get(0).table().upserts()).isFalse();
    assertThatThrownBy(() -> events.generate(DataChangeEvent.deleteEvent(CLICKS, page), out))
        .hasMessageContaining("cdc.shop_clicks")
        .hasMessageContaining("no primary key");
  }

  @Test
  void anUpdateOfABinaryKeyThatKeepsTheKeyDeletesNothing() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.VARBINARY(4).notNull())
            .physicalColumn("n", DataTypes.INT())
            .primaryKey("id")
            .build();
    events.generate(new CreateTableEvent(ORDERS, schema), out);
    events.generate(
        DataChangeEvent.updateEvent(
            ORDERS, record(schema, new byte[] {1, 2}, 1), record(schema, new byte[] {1, 2}, 2)),
        out);

    assertThat(out.records)
        .extracting(record -> record.row().getRowKind())
        .containsExactly(RowKind.UPDATE_AFTER);
  }

  @Test
  void aRenamedKeyOrPartitionColumnStaysTheTablesKeyAndADroppedOneIsRefused() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("day", DataTypes.STRING())
            .primaryKey("id")
            .build();
    FlinkCdcEvents partitioned = events.withPartitionColumns("cdc.shop_orders", List.of("day"));
    partitioned.generate(new CreateTableEvent(ORDERS, schema), out);
    partitioned.generate(new RenameColumnEvent(ORDERS, Map.of("id", "key", "day", "d")), out);
    Schema renamed =
        Schema.newBuilder()
            .physicalColumn("key", DataTypes.INT().notNull())
            .physicalColumn("d", DataTypes.STRING())
            .primaryKey("key")
            .build();
    partitioned.generate(
        DataChangeEvent.updateEvent(
            ORDERS,
            record(renamed, 1, BinaryStringData.fromString("a")),
            record(renamed, 2, BinaryStringData.fromString("a"))),
        out);

    DynamicRecord last = out.records.get(out.records.size() - 1);
    assertThat(last.table().primaryKey()).containsExactly("key");
    assertThat(last.table().partitionColumns()).containsExactly("d");
    assertThat(out.rows())
        .containsExactly(row(RowKind.DELETE, 1, "a"), row(RowKind.UPDATE_AFTER, 2, "a"));
    assertThatThrownBy(
            () -> partitioned.generate(new DropColumnEvent(ORDERS, List.of("d", "key")), out))
        .hasMessageContaining("'d'")
        .hasMessageContaining("cdc.shop_orders")
        .hasMessageContaining("partition columns");
    assertThatThrownBy(
            () -> partitioned.generate(new DropColumnEvent(ORDERS, List.of("other", "key")), out))
        .hasMessageContaining("'key'")
        .hasMessageContaining("primary key");
    assertThat(out.changes).as("no column of a refused drop is dropped").hasSize(2);
  }

  @Test
  void aRestoreKeepsEachTablesSchemaAfterTheMostChangesWhicheverSubtaskHadIt() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .primaryKey("id")
            .build();
    // Subtask 0 knew the table as created; subtask 1 also saw a column added.
    FlinkCdcEvents stale = FlinkCdcEvents.tables("cdc.{schema}_{table}");
    stale.generate(new CreateTableEvent(ORDERS, schema), out);
    FlinkCdcEvents current = FlinkCdcEvents.tables("cdc.{schema}_{table}");
    current.generate(new CreateTableEvent(ORDERS, schema), out);
    current.generate(
        new AddColumnEvent(
            ORDERS, List.of(AddColumnEvent.last(Column.physicalColumn("n", DataTypes.BIGINT())))),
        out);
    Schema added =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("n", DataTypes.BIGINT())
            .primaryKey("id")
            .build();

    for (List<byte[]> snapshots :
        List.of(
            List.of(stale.snapshot(), current.snapshot()),
            List.of(current.snapshot(), stale.snapshot()))) {
      FlinkCdcEvents restored = FlinkCdcEvents.tables("cdc.{schema}_{table}");
      restored.restore(snapshots);
      Recorder written = new Recorder();
      restored.generate(DataChangeEvent.insertEvent(ORDERS, record(added, 7, 70L)), written);
      assertThat(written.rows()).containsExactly(row(RowKind.INSERT, 7, 70L));
    }
  }

  @Test
  void rowsOfATableNotCreatedYetFailNamingIt() {
    Schema schema = Schema.newBuilder().physicalColumn("page", DataTypes.STRING()).build();
    RecordData page = record(schema, BinaryStringData.fromString("a"));
    assertThatThrownBy(() -> events.generate(DataChangeEvent.insertEvent(ORDERS, page), out))
        .hasMessageContaining("shop.orders")
        .hasMessageContaining("CreateTableEvent");
  }

  @Test
  void aTemplateWithAPlaceholderOfNoTableIdPartIsRefused() {
    assertThatThrownBy(() -> FlinkCdcEvents.tables("{db}.{table}"))
        .hasMessageContaining("{db}")
        .hasMessageContaining("{schema}");
  }

  @Test
  void partitionColumnsAndPropertiesGivenForATableWin() throws Exception {
    Schema schema =
        Schema.newBuilder()
            .physicalColumn("day", DataTypes.STRING())
            .physicalColumn("item", DataTypes.STRING())
            .partitionKey("item")
            .build();
    FlinkCdcEvents configured =
        events
            .withPartitionColumns("cdc.shop_orders", List.of("day"))
            .withTableProperties(Map.of("delta.appendOnly", "true"));
    configured.generate(new CreateTableEvent(ORDERS, schema), out);
    configured.generate(
        DataChangeEvent.insertEvent(
            ORDERS,
            record(schema, BinaryStringData.fromString("d1"), BinaryStringData.fromString("x"))),
        out);

    assertThat(out.records.get(0).table().partitionColumns()).containsExactly("day");
    assertThat(out.records.get(0).table().properties()).containsEntry("delta.appendOnly", "true");
  }

  private static RecordData orders(Schema schema, int id, String... strings) {
    Object[] fields = new Object[strings.length + 1];
    fields[0] = id;
    for (int i = 0; i < strings.length; i++) {
      fields[i + 1] = BinaryStringData.fromString(strings[i]);
    }
    return record(schema, fields);
  }

  /** A record of {@code schema} holding {@code fields}, strings given as Java strings. */
  static RecordData record(Schema schema, Object... fields) {
    Object[] values =
        Arrays.stream(fields)
            .map(value -> value instanceof String text ? BinaryStringData.fromString(text) : value)
            .toArray();
    return new BinaryRecordDataGenerator(schema.getColumnDataTypes().toArray(DataType[]::new))
        .generate(values);
  }

  private static GenericRowData row(RowKind kind, Object... fields) {
    GenericRowData row = new GenericRowData(kind, fields.length);
    for (int i = 0; i < fields.length; i++) {
      row.setField(i, fields[i] instanceof String s ? StringData.fromString(s) : fields[i]);
    }
    return row;
  }

  @Test
  void afterARestoreRowsFromBeforeAChangeOnlyTheCoordinatorHadAreReadByTheRestoredShape()
      throws Exception {
    Schema restored =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.STRING())
            .primaryKey("id")
            .build();
    Schema coordinators =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.STRING())
            .physicalColumn("note", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.generate(new CreateTableEvent(ORDERS, restored), out);
    events.generate(FlinkCdcEvents.coordinatorSchema(ORDERS, coordinators), out);
    // Sent again from before the column was added, then after it.
    events.generate(DataChangeEvent.insertEvent(ORDERS, orders(restored, 1, "pen")), out);
    events.generate(
        DataChangeEvent.insertEvent(ORDERS, orders(coordinators, 2, "ink", "wet")), out);

    assertThat(out.rows())
        .containsExactly(row(RowKind.INSERT, 1, "pen"), row(RowKind.INSERT, 2, "ink", "wet"));
    assertThat(out.records.get(0).table().rowType().getFieldNames()).containsExactly("id", "item");
    assertThat(out.records.get(1).table().rowType().getFieldNames())
        .containsExactly("id", "item", "note");
    assertThat(out.records.get(1).table().properties())
        .as("the coordinator's mark stays out of the table")
        .isEmpty();

    Schema wider =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.STRING())
            .physicalColumn("note", DataTypes.STRING())
            .physicalColumn("extra", DataTypes.STRING())
            .primaryKey("id")
            .build();
    assertThatThrownBy(
            () ->
                events.generate(
                    DataChangeEvent.insertEvent(ORDERS, orders(wider, 3, "cap", "x", "y")), out))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("4 columns")
        .hasMessageContaining("cdc.shop_orders");
  }

  /** What a generator hands on, in order. */
  static final class Recorder implements DynamicRecordGenerator.Output {
    final List<DynamicRecord> records = new ArrayList<>();
    final List<TableChange> changes = new ArrayList<>();
    final List<String> order = new ArrayList<>();

    @Override
    public void collect(DynamicRecord record) {
      records.add(record);
      order.add("record " + record.table().name());
    }

    @Override
    public void apply(TableChange change) {
      changes.add(change);
      order.add("change " + change);
    }

    List<GenericRowData> rows() {
      return records.stream().map(record -> (GenericRowData) record.row()).toList();
    }
  }
}
