/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogNamespace;
import io.github.flinkdelta.uc.internal.UnityCatalogNamespace.TableDescription;
import io.github.flinkdelta.uc.internal.UnityCatalogTableLocator;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.hadoop.conf.Configuration;

/**
 * A Flink catalog over one Unity Catalog catalog: its schemas are Flink databases and its Delta
 * tables are Flink tables. {@code CREATE TABLE} creates a managed Delta table whose every version
 * the catalog ratifies, and {@code INSERT INTO} writes through catalog-managed commits, exactly
 * once. Views, functions, partitions and statistics are not kept here; asking for them is an error
 * that says so (see {@link UnsupportedCatalogOperations}).
 */
@Internal
public final class UnityCatalogCatalog extends UnsupportedCatalogOperations {

  /** Enables ALTER TABLE: Delta changes the schema only of tables with column mapping. */
  private static final String COLUMN_MAPPING = "delta.columnMapping.mode";

  private static final String COMMENT = "comment";

  private final String ucCatalog;
  private final UnityCatalogConnection connection;
  private final Map<String, String> hadoopOptions;
  private UnityCatalogClient client;
  private UnityCatalogNamespace namespace;

  UnityCatalogCatalog(
      String name,
      String ucCatalog,
      String defaultDatabase,
      UnityCatalogConnection connection,
      Map<String, String> hadoopOptions) {
    super(name, defaultDatabase);
    this.ucCatalog = ucCatalog;
    this.connection = connection;
    this.hadoopOptions = Map.copyOf(hadoopOptions);
  }

  @Override
  public void open() {
    client = new UnityCatalogClient(connection, hadoopConf());
    namespace = client.namespace(ucCatalog);
    namespace.checkExists();
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
      client = null;
    }
  }

  @Override
  public Optional<Factory> getFactory() {
    return Optional.of(new CatalogTableFactory(connection, ucCatalog, hadoopOptions));
  }

  // ---- databases: Unity Catalog schemas ----

  @Override
  public List<String> listDatabases() {
    return namespace.schemas();
  }

  @Override
  public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
    UnityCatalogNamespace.Schema schema =
        namespace
            .schema(databaseName)
            .orElseThrow(() -> new DatabaseNotExistException(getName(), databaseName));
    return new SchemaDatabase(schema.properties(), schema.comment());
  }

  @Override
  public boolean databaseExists(String databaseName) {
    return namespace.schema(databaseName).isPresent();
  }

  @Override
  public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
      throws DatabaseAlreadyExistException {
    if (databaseExists(name)) {
      if (ignoreIfExists) {
        return;
      }
      throw new DatabaseAlreadyExistException(getName(), name);
    }
    namespace.createSchema(name, database.getComment(), database.getProperties());
  }

  @Override
  public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
      throws DatabaseNotExistException, DatabaseNotEmptyException {
    if (!databaseExists(name)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new DatabaseNotExistException(getName(), name);
    }
    if (!cascade && !namespace.tables(name).isEmpty()) {
      throw new DatabaseNotEmptyException(getName(), name);
    }
    namespace.dropSchema(name, cascade);
  }

  // ---- tables ----

  @Override
  public List<String> listTables(String databaseName) throws DatabaseNotExistException {
    requireDatabase(databaseName);
    return namespace.tables(databaseName);
  }

  @Override
  public List<String> listViews(String databaseName) throws DatabaseNotExistException {
    requireDatabase(databaseName);
    return List.of();
  }

  @Override
  public boolean tableExists(ObjectPath path) {
    return namespace.table(path.getDatabaseName(), path.getObjectName()).isPresent();
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
    TableDescription description = describe(path);
    StructType schema;
    List<String> partitions;
    try (DeltaTable delta = open(description)) {
      schema = delta.snapshot().getSchema();
      partitions = delta.snapshot().getPartitionColumnNames();
    }
    RowType rowType = DeltaTypes.toFlinkRowType(schema);
    Schema.Builder columns = Schema.newBuilder();
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      columns.column(
          rowType.getFieldNames().get(i),
          TypeConversions.fromLogicalToDataType(rowType.getTypeAt(i)));
      FieldMetadata metadata = schema.at(i).getMetadata();
      if (metadata.contains(TableAlteration.COMMENT)) {
        columns.withComment(metadata.getString(TableAlteration.COMMENT));
      }
    }
    Map<String, String> properties = new HashMap<>(description.properties());
    // The key the table records is the schema's primary key, not an option.
    List<String> primaryKey = UpsertTables.recordedKey(properties);
    properties.remove(UpsertTables.PRIMARY_KEY);
    if (!primaryKey.isEmpty()) {
      columns.primaryKey(primaryKey);
    }
    String comment =
        description.comment() != null ? description.comment() : properties.get(COMMENT);
    properties.remove(COMMENT);
    return CatalogTable.newBuilder()
        .schema(columns.build())
        .comment(comment)
        .partitionKeys(partitions)
        .options(properties)
        .build();
  }

  @Override
  public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    String name = qualified(path);
    if (table.getTableKind() != CatalogBaseTable.TableKind.TABLE) {
      throw new CatalogException(
          "Cannot create "
              + name
              + ": catalog "
              + getName()
              + " holds Delta tables only; views are not supported.");
    }
    requireDatabase(path.getDatabaseName());
    if (tableExists(path)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), path);
    }
    ResolvedCatalogTable resolved = (ResolvedCatalogTable) table;
    RowType rowType = physicalRowType(name, resolved.getResolvedSchema());
    Map<String, String> properties = new HashMap<>(resolved.getOptions());
    if (properties.containsKey("connector")) {
      throw new CatalogException(
          "Cannot create "
              + name
              + ": tables of catalog "
              + getName()
              + " are Unity Catalog managed Delta tables; remove the 'connector' option.");
    }
    properties.putIfAbsent(COLUMN_MAPPING, "name");
    resolved
        .getResolvedSchema()
        .getPrimaryKey()
        .ifPresent(
            key -> {
              // Recorded for later sinks; upserts write deletion vectors.
              properties.put(UpsertTables.PRIMARY_KEY, UpsertTables.keyProperty(key.getColumns()));
              properties.putIfAbsent(UpsertTables.DELETION_VECTORS, "true");
            });
    if (resolved.getComment() != null && !resolved.getComment().isEmpty()) {
      properties.put(COMMENT, resolved.getComment());
    }
    client.createManagedTable(
        hadoopConf(),
        new UnityCatalogTableName(ucCatalog, path.getDatabaseName(), path.getObjectName()),
        withComments(DeltaTypes.toDeltaSchema(rowType), resolved.getResolvedSchema()),
        resolved.getPartitionKeys(),
        properties);
  }

  @Override
  public void dropTable(ObjectPath path, boolean ignoreIfNotExists) throws TableNotExistException {
    if (!tableExists(path)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), path);
    }
    namespace.dropTable(path.getDatabaseName(), path.getObjectName());
  }

  /**
   * {@code ALTER TABLE}: nullable columns added at the end, column types widened, {@code NOT NULL}
   * dropped and column comments changed (see {@link TableAlteration}), committed as one table
   * version that the catalog ratifies like any other; nothing else.
   */
  @Override
  public void alterTable(
      ObjectPath path,
      CatalogBaseTable newTable,
      List<TableChange> changes,
      boolean ignoreIfNotExists)
      throws TableNotExistException {
    if (!tableExists(path)) {
      if (ignoreIfNotExists) {
        return;
      }
      throw new TableNotExistException(getName(), path);
    }
    String name = qualified(path);
    try (DeltaTable delta = open(describe(path))) {
      StructType current = delta.snapshot().getSchema();
      StructType altered = TableAlteration.apply(name, current, changes);
      if (!altered.equals(current)) {
        delta.metadata().evolveSchema(altered, true);
      }
    } catch (IllegalArgumentException | IllegalStateException | KernelException e) {
      throw new CatalogException("Cannot alter " + name + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
    throw new CatalogException(
        "Cannot alter "
            + qualified(path)
            + ": only ALTER TABLE ... ADD and MODIFY of columns are supported.");
  }

  private TableDescription describe(ObjectPath path) throws TableNotExistException {
    TableDescription description =
        namespace
            .table(path.getDatabaseName(), path.getObjectName())
            .orElseThrow(() -> new TableNotExistException(getName(), path));
    if (!description.delta()) {
      throw new CatalogException(
          qualified(path)
              + " is not a Delta table; catalog "
              + getName()
              + " reads and writes Delta tables only.");
    }
    return description;
  }

  /** The partitions that hold rows in the table's latest version (see {@link TablePartitions}). */
  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
      throws TableNotExistException, TableNotPartitionedException {
    return TablePartitions.of(
        new UnityCatalogTableLocator(connection, describe(path).table()),
        hadoopConf(),
        getName(),
        path);
  }

  private DeltaTable open(TableDescription description) {
    return DeltaTable.open(
        TableRequest.of(
            new UnityCatalogTableLocator(connection, description.table()), hadoopConf()));
  }

  /** {@code schema} with the comments of the columns of {@code resolved}. */
  private static StructType withComments(StructType schema, ResolvedSchema resolved) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : schema.fields()) {
      String comment = resolved.getColumn(field.getName()).flatMap(Column::getComment).orElse(null);
      fields.add(TableAlteration.withComment(field, comment));
    }
    return new StructType(fields);
  }

  private RowType physicalRowType(String name, ResolvedSchema schema) {
    for (Column column : schema.getColumns()) {
      if (!column.isPhysical()) {
        throw new CatalogException(
            "Cannot create "
                + name
                + ": column '"
                + column.getName()
                + "' is computed or metadata; a Delta table stores physical columns only.");
      }
    }
    if (!schema.getWatermarkSpecs().isEmpty()) {
      throw new CatalogException(
          "Cannot create " + name + ": a Delta table stores no watermark; remove WATERMARK.");
    }
    return (RowType) schema.toPhysicalRowDataType().getLogicalType();
  }

  private void requireDatabase(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
  }

  private String qualified(ObjectPath path) {
    return ucCatalog + "." + path.getFullName();
  }

  private Configuration hadoopConf() {
    return HadoopConfigurations.of(hadoopOptions);
  }
}
