/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.types.LongType;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DataChangeEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.OperationType;
import org.apache.flink.cdc.common.event.RenameColumnEvent;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.types.DataTypes;
import org.apache.flink.cdc.runtime.typeutils.EventTypeInfo;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink CDC's events through the dynamic sink on a MiniCluster, into path tables read back through
 * Kernel: a keyed table taking inserts, updates (one changing its key), deletes and every schema
 * change Flink CDC 3.2 defines between its rows, and an appending table beside it; the job fails
 * once after a schema change and resumes from its checkpoint, where the sink kept the schemas.
 */
class FlinkCdcEventsITCase {

  @RegisterExtension
  static final MiniClusterExtension FLINK =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  private static final TableId ORDERS = TableId.tableId("shop", "orders");
  private static final TableId CLICKS = TableId.tableId("shop", "clicks");

  @TempDir Path dir;

  @Test
  void aKeyedTableTakesItsChangesAndSchemaChangesInOrderAndAnAppendingOneItsRows()
      throws Exception {
    FailOnce.fired.set(false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(100);
    env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1, 100));
    // Three events a checkpoint: the failure comes checkpoints after the tables were created, and
    // the source resumes after their CreateTableEvents.
    env.fromSource(
            new DataGeneratorSource<>(
                index -> events().get(index.intValue()),
                events().size(),
                RateLimiterStrategy.perCheckpoint(3),
                new EventTypeInfo()),
            WatermarkStrategy.noWatermarks(),
            "flink cdc events")
        .map(new FailOnce())
        .returns(new EventTypeInfo())
        .sinkTo(
            DeltaSink.dynamic(FlinkCdcEvents.tables("{schema}.{table}"))
                .tableRoot(dir.toUri().toString())
                .schemaEvolution(SchemaEvolution.WIDEN)
                .build());
    env.execute("flink cdc events");

    assertThat(FailOnce.fired).as("the failure fired").isTrue();
    String orders = dir.resolve("shop/orders").toUri().toString();
    var snapshot =
        TableManager.loadSnapshot(orders)
            .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
    assertThat(snapshot.getSchema().fieldNames()).containsExactly("id", "product", "qty");
    assertThat(snapshot.getSchema().get("qty").getDataType()).isEqualTo(LongType.LONG);
    assertThat(DeltaTableReader.readAll(orders))
        .containsExactlyInAnyOrder(
            List.of(2, "ink", 20L),
            List.of(3, "cap", 3_000_000_000L),
            List.of(10, "pad", 5L),
            List.of(11, "pen", 7L));

    assertThat(DeltaTableReader.readAll(dir.resolve("shop/clicks").toUri().toString()))
        .containsExactlyInAnyOrder(List.of("/a"), List.of("/b"), List.of("/a"));
  }

  private static List<Event> events() {
    Schema orders =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.INT())
            .primaryKey("id")
            .build();
    Schema clicks = Schema.newBuilder().physicalColumn("page", DataTypes.STRING()).build();
    List<Event> events = new ArrayList<>();
    events.add(new CreateTableEvent(ORDERS, orders));
    events.add(new CreateTableEvent(CLICKS, clicks));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(orders, 1, "pen", 1)));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(orders, 2, "ink", 2)));
    events.add(DataChangeEvent.insertEvent(CLICKS, row(clicks, "/a")));
    events.add(
        DataChangeEvent.updateEvent(ORDERS, row(orders, 2, "ink", 2), row(orders, 2, "ink", 20)));
    // The key changes: 1 goes, 10 comes.
    events.add(
        DataChangeEvent.updateEvent(ORDERS, row(orders, 1, "pen", 1), row(orders, 10, "pad", 5)));

    Schema withNote =
        orders.copy(columns(orders, Column.physicalColumn("note", DataTypes.STRING())));
    events.add(
        new AddColumnEvent(
            ORDERS,
            List.of(AddColumnEvent.last(Column.physicalColumn("note", DataTypes.STRING())))));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(withNote, 3, "cap", 3, "fragile")));
    events.add(DataChangeEvent.insertEvent(CLICKS, row(clicks, "/b")));

    events.add(new AlterColumnTypeEvent(ORDERS, Map.of("qty", DataTypes.BIGINT())));
    Schema wide =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.BIGINT())
            .physicalColumn("note", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.add(
        DataChangeEvent.updateEvent(
            ORDERS,
            row(wide, 3, "cap", 3L, "fragile"),
            row(wide, 3, "cap", 3_000_000_000L, "fragile")));

    events.add(new RenameColumnEvent(ORDERS, Map.of("item", "product")));
    events.add(new DropColumnEvent(ORDERS, List.of("note")));
    Schema last =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("product", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.BIGINT())
            .primaryKey("id")
            .build();
    events.add(DataChangeEvent.insertEvent(ORDERS, row(last, 11, "pen", 7L)));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(last, 12, "cup", 1L)));
    events.add(DataChangeEvent.deleteEvent(ORDERS, row(last, 12, "cup", 1L)));
    events.add(DataChangeEvent.insertEvent(CLICKS, row(clicks, "/a")));
    return events;
  }

  /** Fails the job once, at the first row after the column type was altered. */
  private static final class FailOnce implements MapFunction<Event, Event> {
    static final AtomicBoolean fired = new AtomicBoolean();

    @Override
    public Event map(Event event) {
      if (event instanceof DataChangeEvent change
          && change.op() == OperationType.UPDATE
          && change.tableId().equals(ORDERS)
          && change.before().getArity() == 4
          && fired.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure");
      }
      return event;
    }
  }

  private static List<Column> columns(Schema schema, Column added) {
    List<Column> columns = new ArrayList<>(schema.getColumns());
    columns.add(added);
    return columns;
  }

  private static org.apache.flink.cdc.common.data.RecordData row(Schema schema, Object... values) {
    return FlinkCdcEventsTest.record(schema, values);
  }
}
