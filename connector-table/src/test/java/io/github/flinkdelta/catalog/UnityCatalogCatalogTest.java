/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Unity Catalog Flink catalog against the embedded Unity Catalog server over HTTP: schemas as
 * databases, managed Delta tables created and read back with their key, partitions and comments,
 * and what it refuses.
 */
class UnityCatalogCatalogTest {

  private static final String TOKEN = "catalog-test-token";

  @RegisterExtension
  final UnityCatalogServerExtension server = new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  private UnityCatalogCatalog catalog;

  @BeforeEach
  void open() {
    catalog =
        new UnityCatalogCatalog(
            "uc",
            "main",
            "default",
            new UnityCatalogConnection(server.server().uri(), Secret.of(TOKEN)),
            Map.of());
    catalog.open();
  }

  @AfterEach
  void close() {
    catalog.close();
  }

  @Test
  void schemasAreDatabasesThatAreCreatedAndDropped() throws Exception {
    catalog.createDatabase("sales", new CatalogDatabaseImpl(Map.of(), "orders and returns"), false);

    assertThat(catalog.listDatabases()).contains("default", "sales");
    assertThat(catalog.getDatabase("sales").getComment()).isEqualTo("orders and returns");

    catalog.dropDatabase("sales", false, false);

    assertThat(catalog.databaseExists("sales")).isFalse();
  }

  @Test
  void aCreatedTableReadsBackWithItsColumnsKeyPartitionsAndComment() throws Exception {
    ObjectPath path = new ObjectPath("default", "orders");

    catalog.createTable(path, orders(Map.of()), false);
    CatalogBaseTable read = catalog.getTable(path);

    assertThat(catalog.listTables("default")).containsExactly("orders");
    assertThat(read).isInstanceOf(CatalogTable.class);
    CatalogTable table = (CatalogTable) read;
    assertThat(table.getComment()).isEqualTo("every order");
    assertThat(table.getPartitionKeys()).containsExactly("day");
    Schema schema = table.getUnresolvedSchema();
    assertThat(schema.getColumns())
        .extracting(Schema.UnresolvedColumn::getName)
        .containsExactly("id", "day", "amount");
    assertThat(schema.getPrimaryKey()).isPresent();
    assertThat(schema.getPrimaryKey().get().getColumnNames()).containsExactly("id");
    assertThat(table.getOptions()).containsEntry("delta.enableDeletionVectors", "true");
  }

  @Test
  void aTableThatExistsIsKeptWhenAskedToAndRefusedOtherwise() throws Exception {
    ObjectPath path = new ObjectPath("default", "orders");
    catalog.createTable(path, orders(Map.of()), false);

    catalog.createTable(path, orders(Map.of()), true);

    assertThatThrownBy(() -> catalog.createTable(path, orders(Map.of()), false))
        .isInstanceOf(TableAlreadyExistException.class);
    assertThatThrownBy(() -> catalog.dropDatabase("default", false, false))
        .isInstanceOf(DatabaseNotEmptyException.class);
  }

  @Test
  void aTableWithAConnectorOptionIsRefusedNamingTheTableAndWhatToRemove() {
    ObjectPath path = new ObjectPath("default", "elsewhere");

    assertThatThrownBy(() -> catalog.createTable(path, orders(Map.of("connector", "delta")), false))
        .isInstanceOf(CatalogException.class)
        .hasMessageContaining("main.default.elsewhere")
        .hasMessageContaining("remove the 'connector' option");
    assertThat(catalog.tableExists(path)).isFalse();
  }

  private static ResolvedCatalogTable orders(Map<String, String> options) {
    ResolvedSchema schema =
        new ResolvedSchema(
            List.of(
                Column.physical("id", DataTypes.BIGINT().notNull()),
                Column.physical("day", DataTypes.STRING()),
                Column.physical("amount", DataTypes.DOUBLE())),
            List.of(),
            UniqueConstraint.primaryKey("pk", List.of("id")));
    CatalogTable table =
        CatalogTable.newBuilder()
            .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
            .comment("every order")
            .partitionKeys(List.of("day"))
            .options(options)
            .build();
    return new ResolvedCatalogTable(table, schema);
  }
}
