/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.cdc.common.configuration.Configuration;
import org.apache.flink.cdc.common.event.AddColumnEvent;
import org.apache.flink.cdc.common.event.AlterColumnTypeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.DropColumnEvent;
import org.apache.flink.cdc.common.event.SchemaChangeEventType;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.exceptions.UnsupportedSchemaChangeEventException;
import org.apache.flink.cdc.common.factories.FactoryHelper;
import org.apache.flink.cdc.common.schema.Column;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.sink.MetadataApplier;
import org.apache.flink.cdc.common.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaMetadataApplierTest {

  private static final TableId ORDERS = TableId.tableId("shop", "orders");

  @TempDir Path dir;
  private MetadataApplier applier;
  private String table;

  @BeforeEach
  void createOrders() {
    applier =
        new DeltaDataSinkFactory()
            .createDataSink(
                new FactoryHelper.DefaultContext(
                    Configuration.fromMap(
                        Map.of(
                            "catalog.properties.warehouse",
                            dir.toUri().toString(),
                            "partition.key",
                            "shop.orders:region")),
                    new Configuration(),
                    getClass().getClassLoader()))
            .getMetadataApplier();
    applier.applySchemaChange(
        new CreateTableEvent(
            ORDERS,
            Schema.newBuilder()
                .physicalColumn("id", DataTypes.INT().notNull())
                .physicalColumn("region", DataTypes.STRING())
                .physicalColumn("qty", DataTypes.INT())
                .primaryKey("id")
                .build()));
    table = dir.resolve("shop/orders").toUri().toString();
  }

  @Test
  void aCreateTableEventCreatesTheEmptyTableWithItsKeyAndThePartitionColumnsOfTheOption() {
    Snapshot snapshot =
        TableManager.loadSnapshot(table)
            .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
    assertThat(snapshot.getSchema().fieldNames()).containsExactly("id", "region", "qty");
    assertThat(snapshot.getPartitionColumnNames()).containsExactly("region");
    assertThat(snapshot.getTableProperties()).containsEntry("flink.primary-key", "id");
    assertThat(DeltaTableReader.readAll(table)).isEmpty();
  }

  @Test
  void aTypeDeltaWidensToIsAcceptedAndOneItDoesNotIsRefusedAsUnsupportedNamingTheColumn() {
    assertThatCode(
            () ->
                applier.applySchemaChange(
                    new AlterColumnTypeEvent(ORDERS, Map.of("qty", DataTypes.BIGINT()))))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                applier.applySchemaChange(
                    new AlterColumnTypeEvent(ORDERS, Map.of("qty", DataTypes.STRING()))))
        .isInstanceOf(UnsupportedSchemaChangeEventException.class)
        .hasMessageContaining("column 'qty'")
        .hasMessageContaining("shop/orders")
        .hasMessageContaining("Delta does not widen to");
  }

  @Test
  void droppingAKeyOrPartitionColumnIsRefusedAsUnsupportedNamingWhichItIs() {
    assertThatThrownBy(
            () -> applier.applySchemaChange(new DropColumnEvent(ORDERS, List.of("qty", "id"))))
        .isInstanceOf(UnsupportedSchemaChangeEventException.class)
        .hasMessageContaining("column 'id'")
        .hasMessageContaining("primary key");
    assertThatThrownBy(
            () -> applier.applySchemaChange(new DropColumnEvent(ORDERS, List.of("region"))))
        .isInstanceOf(UnsupportedSchemaChangeEventException.class)
        .hasMessageContaining("partition columns");
    assertThatCode(() -> applier.applySchemaChange(new DropColumnEvent(ORDERS, List.of("qty"))))
        .doesNotThrowAnyException();
  }

  @Test
  void addedColumnsTakeTheirPlaceAtTheSourceInTheTableAtOnce() {
    applier.applySchemaChange(
        new AddColumnEvent(
            ORDERS,
            List.of(
                AddColumnEvent.first(Column.physicalColumn("seq", DataTypes.BIGINT().notNull())),
                AddColumnEvent.after(Column.physicalColumn("note", DataTypes.STRING()), "region"),
                AddColumnEvent.before(Column.physicalColumn("sku", DataTypes.INT()), "qty"),
                AddColumnEvent.last(Column.physicalColumn("tag", DataTypes.STRING())),
                AddColumnEvent.after(Column.physicalColumn("end", DataTypes.STRING()), "tag"))));

    Snapshot snapshot =
        TableManager.loadSnapshot(table)
            .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
    assertThat(snapshot.getSchema().fieldNames())
        .containsExactly("seq", "id", "region", "note", "sku", "qty", "tag", "end");
    assertThat(snapshot.getSchema().get("seq").isNullable())
        .as("an added column is nullable: the table's rows have no value for it")
        .isTrue();
    // Sent again after a failure, the change finds the table changed.
    applier.applySchemaChange(
        new AddColumnEvent(
            ORDERS,
            List.of(
                AddColumnEvent.after(Column.physicalColumn("note", DataTypes.STRING()), "id"))));
    assertThat(
            TableManager.loadSnapshot(table)
                .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())))
                .getVersion())
        .isEqualTo(snapshot.getVersion());
  }

  @Test
  void thePipelinesIncludedChangesAreTheOnesItAccepts() {
    applier.setAcceptedSchemaEvolutionTypes(
        Set.of(SchemaChangeEventType.CREATE_TABLE, SchemaChangeEventType.ADD_COLUMN));
    assertThat(applier.acceptsSchemaEvolutionType(SchemaChangeEventType.ADD_COLUMN)).isTrue();
    assertThat(applier.acceptsSchemaEvolutionType(SchemaChangeEventType.DROP_COLUMN)).isFalse();
  }
}
