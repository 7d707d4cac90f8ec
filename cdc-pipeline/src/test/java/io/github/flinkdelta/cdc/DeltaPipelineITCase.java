/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.cdc.common.data.RecordData;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DataChangeEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.RenameColumnEvent;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.types.DataTypes;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline defined in YAML ({@code sink: type: delta}) and run by Flink CDC's own composer,
 * submitted to a MiniCluster as {@code flink-cdc.sh} submits to a cluster: three tables, then
 * updates, deletes, a table created mid-stream and every schema change Flink CDC 3.2 defines, with
 * the job failed once right after a column was added. Every table is read back through Kernel.
 */
class DeltaPipelineITCase {

  @RegisterExtension
  static final MiniClusterExtension FLINK =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  private static final TableId ORDERS = TableId.tableId("shop", "orders");
  private static final TableId CLICKS = TableId.tableId("shop", "clicks");
  private static final TableId USERS = TableId.tableId("shop", "users");
  private static final TableId RETURNS = TableId.tableId("shop", "returns");

  @TempDir Path dir;

  @Test
  void aYamlPipelineLandsEachTableExactlyThroughSchemaChangesAndAFailureInTheMiddleOfOne(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    List<Event> events = new ArrayList<>();
    int addColumn = shop(events);
    ScriptedEventsFactory.Script script =
        ScriptedEventsFactory.register("shop", events, 2, addColumn);
    String warehouse = dir.toUri().toString();
    String yaml =
        String.join(
            "\n",
            "source:",
            "  type: scripted-events",
            "  script: shop",
            "sink:",
            "  type: delta",
            "  catalog.properties.warehouse: " + warehouse,
            "  partition.key: shop.users:region",
            "pipeline:",
            "  name: shop into delta",
            "  parallelism: 2",
            "  schema.change.behavior: evolve",
            "");

    PipelineRuns.assertSucceeded(PipelineRuns.run(cluster, yaml));

    assertThat(script.failures().get()).as("the failure fired").isEqualTo(1);
    String orders = dir.resolve("shop/orders").toUri().toString();
    Snapshot snapshot = snapshot(orders);
    assertThat(snapshot.getSchema().fieldNames()).containsExactly("id", "product", "qty", "note");
    assertThat(snapshot.getSchema().get("qty").getDataType()).isEqualTo(LongType.LONG);
    // The column added right before the failure keeps the values of the rows after it: the
    // coordinator, which had applied the change, did not hand it on again after the restart.
    assertThat(DeltaTableReader.readAll(orders))
        .containsExactlyInAnyOrder(
            Arrays.asList(2, "ink", 20L, null),
            Arrays.asList(3, "cap", 3_000_000_000L, null),
            List.of(4, "cup", 4L, "fragile"),
            List.of(5, "pad", 7L, "last"));
    assertThat(DeltaTableReader.readAll(dir.resolve("shop/clicks").toUri().toString()))
        .containsExactlyInAnyOrder(List.of("/a"), List.of("/b"));
    String users = dir.resolve("shop/users").toUri().toString();
    assertThat(snapshot(users).getPartitionColumnNames()).containsExactly("region");
    assertThat(DeltaTableReader.readAll(users)).containsExactly(List.of(2L, "us", "bobby"));
    assertThat(DeltaTableReader.readAll(dir.resolve("shop/returns").toUri().toString()))
        .containsExactly(List.of(1, 2));
  }

  @Test
  void aTypeChangeDeltaCannotWidenToIsLeftOutUnderTryEvolveAndFailsThePipelineUnderEvolve(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    Schema orders =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("qty", DataTypes.INT())
            .primaryKey("id")
            .build();
    Schema text =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("qty", DataTypes.STRING())
            .primaryKey("id")
            .build();
    List<Event> events =
        List.of(
            new CreateTableEvent(ORDERS, orders),
            DataChangeEvent.insertEvent(ORDERS, row(orders, 1, 5)),
            new AlterColumnTypeEvent(ORDERS, Map.of("qty", DataTypes.STRING())),
            DataChangeEvent.insertEvent(ORDERS, row(text, 2, "7")));
    ScriptedEventsFactory.register("retyped", events, 2, -1);

    PipelineRuns.assertSucceeded(
        PipelineRuns.run(
            cluster, retyping(dir.resolve("tolerant").toUri().toString(), "try_evolve")));
    String table = dir.resolve("tolerant/shop/orders").toUri().toString();
    assertThat(snapshot(table).getSchema().get("qty").getDataType())
        .as("the column keeps its type")
        .isEqualTo(IntegerType.INTEGER);
    assertThat(DeltaTableReader.readAll(table))
        .as("the row after the change, its value of the left-out type nulled by Flink CDC")
        .containsExactlyInAnyOrder(List.of(1, 5), Arrays.asList(2, null));

    JobResult strict =
        PipelineRuns.run(cluster, retyping(dir.resolve("strict").toUri().toString(), "evolve"));
    assertThat(strict.getSerializedThrowable()).isPresent();
    assertThat(
            strict
                .getSerializedThrowable()
                .get()
                .deserializeError(DeltaPipelineITCase.class.getClassLoader()))
        .rootCause()
        .hasMessageContaining("column 'qty'")
        .hasMessageContaining("shop/orders")
        .hasMessageContaining("Delta does not widen to");
  }

  private static String retyping(String warehouse, String behavior) {
    return String.join(
        "\n",
        "source:",
        "  type: scripted-events",
        "  script: retyped",
        "sink:",
        "  type: delta",
        "  catalog.properties.warehouse: " + warehouse,
        "pipeline:",
        "  parallelism: 1",
        "  schema.change.behavior: " + behavior,
        "");
  }

  /**
   * A shop's events: three tables and their rows, then changes, a fourth table, and every schema
   * change; returns the index of the column's addition.
   */
  private static int shop(List<Event> events) {
    Schema orders =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.INT())
            .primaryKey("id")
            .build();
    Schema clicks = Schema.newBuilder().physicalColumn("page", DataTypes.STRING()).build();
    Schema users =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.BIGINT().notNull())
            .physicalColumn("region", DataTypes.STRING())
            .physicalColumn("name", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.add(new CreateTableEvent(ORDERS, orders));
    events.add(new CreateTableEvent(CLICKS, clicks));
    events.add(new CreateTableEvent(USERS, users));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(orders, 1, "pen", 1)));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(orders, 2, "ink", 2)));
    events.add(DataChangeEvent.insertEvent(ORDERS, row(orders, 3, "cap", 3)));
    events.add(DataChangeEvent.insertEvent(CLICKS, row(clicks, "/a")));
    events.add(DataChangeEvent.insertEvent(USERS, row(users, 1L, "eu", "ann")));
    events.add(DataChangeEvent.insertEvent(USERS, row(users, 2L, "us", "bob")));
    events.add(
        DataChangeEvent.updateEvent(ORDERS, row(orders, 2, "ink", 2), row(orders, 2, "ink", 20)));
    events.add(DataChangeEvent.deleteEvent(ORDERS, row(orders, 1, "pen", 1)));
    events.add(
        DataChangeEvent.updateEvent(
            USERS, row(users, 2L, "us", "bob"), row(users, 2L, "us", "bobby")));

    int addColumn = events.size();
    events.add(
        new AddColumnEvent(
            ORDERS,
            List.of(AddColumnEvent.last(Column.physicalColumn("note", DataTypes.STRING())))));
    Schema withNote =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("item", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.INT())
            .physicalColumn("note", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.add(DataChangeEvent.insertEvent(ORDERS, row(withNote, 4, "cup", 4, "fragile")));

    Schema returns =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("order_id", DataTypes.INT())
            .primaryKey("id")
            .build();
    events.add(new CreateTableEvent(RETURNS, returns));
    events.add(DataChangeEvent.insertEvent(RETURNS, row(returns, 1, 2)));

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
            ORDERS, row(wide, 3, "cap", 3L, null), row(wide, 3, "cap", 3_000_000_000L, null)));
    events.add(new RenameColumnEvent(ORDERS, Map.of("item", "product")));
    events.add(
        new AddColumnEvent(
            ORDERS,
            List.of(AddColumnEvent.last(Column.physicalColumn("draft", DataTypes.STRING())))));
    Schema drafted =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("product", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.BIGINT())
            .physicalColumn("note", DataTypes.STRING())
            .physicalColumn("draft", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.add(DataChangeEvent.insertEvent(ORDERS, row(drafted, 6, "mug", 1L, null, "x")));
    events.add(DataChangeEvent.deleteEvent(ORDERS, row(drafted, 6, "mug", 1L, null, "x")));
    events.add(new DropColumnEvent(ORDERS, List.of("draft")));
    Schema last =
        Schema.newBuilder()
            .physicalColumn("id", DataTypes.INT().notNull())
            .physicalColumn("product", DataTypes.VARCHAR(20))
            .physicalColumn("qty", DataTypes.BIGINT())
            .physicalColumn("note", DataTypes.STRING())
            .primaryKey("id")
            .build();
    events.add(DataChangeEvent.insertEvent(ORDERS, row(last, 5, "pad", 7L, "last")));
    events.add(DataChangeEvent.insertEvent(CLICKS, row(clicks, "/b")));
    events.add(DataChangeEvent.deleteEvent(USERS, row(users, 1L, "eu", "ann")));
    return addColumn;
  }

  private static Snapshot snapshot(String table) {
    return TableManager.loadSnapshot(table)
        .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
  }

  private static RecordData row(Schema schema, Object... values) {
    return FlinkCdcEventsTest.record(schema, values);
  }
}
