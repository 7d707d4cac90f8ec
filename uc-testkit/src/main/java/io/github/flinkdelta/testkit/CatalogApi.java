/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.github.flinkdelta.testkit.CatalogState.Catalog;
import io.github.flinkdelta.testkit.CatalogState.Schema;
import io.github.flinkdelta.testkit.CatalogState.Staging;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.model.AwsCredentials;
import io.unitycatalog.client.model.CatalogInfo;
import io.unitycatalog.client.model.CreateCatalog;
import io.unitycatalog.client.model.CreateSchema;
import io.unitycatalog.client.model.CreateStagingTable;
import io.unitycatalog.client.model.CreateTable;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.GenerateTemporaryTableCredential;
import io.unitycatalog.client.model.GetMetastoreSummaryResponse;
import io.unitycatalog.client.model.ListCatalogsResponse;
import io.unitycatalog.client.model.ListSchemasResponse;
import io.unitycatalog.client.model.ListTablesResponse;
import io.unitycatalog.client.model.SchemaInfo;
import io.unitycatalog.client.model.StagingTableInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableType;
import io.unitycatalog.client.model.TemporaryCredentials;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Catalogs, schemas, tables, staging tables and temporary credentials: the part of the Unity
 * Catalog REST API a Delta writer uses besides commits.
 */
final class CatalogApi {

  static final String TABLE_ID_PROPERTY = "io.unitycatalog.tableId";

  private final CatalogState state;
  private final URI storageRoot;
  private final S3CredentialVendor s3Credentials;
  private final Clock clock;
  private final String metastoreId;

  CatalogApi(
      CatalogState state,
      URI storageRoot,
      S3CredentialVendor s3Credentials,
      Clock clock,
      String metastoreId) {
    this.state = state;
    this.storageRoot = storageRoot;
    this.s3Credentials = s3Credentials;
    this.clock = clock;
    this.metastoreId = metastoreId;
  }

  Object metastoreSummary(ApiRequest request) {
    return new GetMetastoreSummaryResponse().metastoreId(metastoreId);
  }

  Object createCatalog(ApiRequest request) {
    CreateCatalog create = request.body(CreateCatalog.class);
    String name = required(create.getName(), "name");
    if (state.catalogs.containsKey(name)) {
      throw UnityCatalogException.alreadyExists("CATALOG", "Catalog already exists: " + name);
    }
    Catalog catalog =
        new Catalog(
            UUID.randomUUID().toString(),
            name,
            create.getComment(),
            orEmpty(create.getProperties()),
            clock.millis());
    state.catalogs.put(name, catalog);
    return info(catalog);
  }

  Object listCatalogs(ApiRequest request) {
    return new ListCatalogsResponse()
        .catalogs(state.catalogs.values().stream().map(CatalogApi::info).toList());
  }

  Object getCatalog(ApiRequest request) {
    return info(catalog(request.path("name")));
  }

  Object deleteCatalog(ApiRequest request) {
    String name = catalog(request.path("name")).name();
    boolean force = Boolean.parseBoolean(request.query("force"));
    boolean hasSchemas = state.schemas.values().stream().anyMatch(s -> s.catalog().equals(name));
    if (hasSchemas && !force) {
      throw UnityCatalogException.badRequest("Cannot delete catalog with schemas: " + name);
    }
    state.tables.values().removeIf(t -> t.catalog().equals(name));
    state.schemas.values().removeIf(s -> s.catalog().equals(name));
    state.catalogs.remove(name);
    return Map.of();
  }

  Object createSchema(ApiRequest request) {
    CreateSchema create = request.body(CreateSchema.class);
    Catalog catalog = catalog(required(create.getCatalogName(), "catalog_name"));
    String full = catalog.name() + "." + required(create.getName(), "name");
    if (state.schemas.containsKey(full)) {
      throw UnityCatalogException.alreadyExists("SCHEMA", "Schema already exists: " + full);
    }
    Schema schema =
        new Schema(
            UUID.randomUUID().toString(),
            catalog.name(),
            create.getName(),
            create.getComment(),
            orEmpty(create.getProperties()),
            clock.millis());
    state.schemas.put(full, schema);
    return info(schema);
  }

  Object listSchemas(ApiRequest request) {
    String catalog = catalog(required(request.query("catalog_name"), "catalog_name")).name();
    return new ListSchemasResponse()
        .schemas(
            state.schemas.values().stream()
                .filter(s -> s.catalog().equals(catalog))
                .map(CatalogApi::info)
                .toList());
  }

  Object getSchema(ApiRequest request) {
    return info(schema(request.path("full_name")));
  }

  Object deleteSchema(ApiRequest request) {
    Schema schema = schema(request.path("full_name"));
    boolean force = Boolean.parseBoolean(request.query("force"));
    List<Table> tables = state.tablesOf(schema.catalog(), schema.name());
    if (!tables.isEmpty() && !force) {
      throw UnityCatalogException.badRequest(
          "Cannot delete schema with tables: " + schema.catalog() + "." + schema.name());
    }
    tables.forEach(t -> state.tables.remove(t.fullName()));
    state.schemas.remove(schema.catalog() + "." + schema.name());
    return Map.of();
  }

  Object createStagingTable(ApiRequest request) {
    CreateStagingTable create = request.body(CreateStagingTable.class);
    Schema schema =
        schema(
            required(create.getCatalogName(), "catalog_name")
                + "."
                + required(create.getSchemaName(), "schema_name"));
    Staging staging = state.stage(schema, required(create.getName(), "name"), storageRoot);
    return new StagingTableInfo()
        .id(staging.id())
        .name(staging.name())
        .catalogName(staging.catalog())
        .schemaName(staging.schema())
        .stagingLocation(staging.location());
  }

  Object createTable(ApiRequest request) {
    CreateTable create = request.body(CreateTable.class);
    Schema schema =
        schema(
            required(create.getCatalogName(), "catalog_name")
                + "."
                + required(create.getSchemaName(), "schema_name"));
    String name = required(create.getName(), "name");
    String full = schema.catalog() + "." + schema.name() + "." + name;
    state.requireNoTable(full);
    TableType type = create.getTableType();
    if (type == null) {
      throw UnityCatalogException.badRequest("table_type is required");
    }
    String location = required(create.getStorageLocation(), "storage_location");
    Map<String, String> properties = orEmpty(create.getProperties());
    String id;
    if (type == TableType.MANAGED) {
      if (create.getDataSourceFormat() != DataSourceFormat.DELTA) {
        throw UnityCatalogException.badRequest("Managed tables must be DELTA tables");
      }
      id = properties.get(TABLE_ID_PROPERTY);
      Staging staging = id == null ? null : state.staging.get(id);
      if (staging == null) {
        throw UnityCatalogException.badRequest(
            "Managed table "
                + full
                + " needs the property "
                + TABLE_ID_PROPERTY
                + " naming a staging table of that name");
      }
      if (staging.committed()) {
        throw UnityCatalogException.stagingCommitted(staging.location());
      }
      if (!Locations.same(staging.location(), location)) {
        throw UnityCatalogException.badRequest(
            "Managed table "
                + full
                + " must be created at its staging location "
                + staging.location());
      }
      state.staging.put(id, staging.asCommitted());
      state.commits.put(id, new CatalogState.CommitLog());
    } else if (type == TableType.EXTERNAL) {
      id = UUID.randomUUID().toString();
    } else {
      throw UnityCatalogException.badRequest("Unsupported table_type " + type);
    }
    Table table =
        new Table(
            id,
            schema.catalog(),
            schema.name(),
            name,
            type.getValue(),
            create.getDataSourceFormat() == null ? null : create.getDataSourceFormat().getValue(),
            location,
            create.getColumns() == null ? List.of() : create.getColumns(),
            create.getComment(),
            properties,
            clock.millis(),
            clock.millis(),
            null);
    state.tables.put(full, table);
    return info(table);
  }

  Object listTables(ApiRequest request) {
    Schema schema =
        schema(
            required(request.query("catalog_name"), "catalog_name")
                + "."
                + required(request.query("schema_name"), "schema_name"));
    return new ListTablesResponse()
        .tables(
            state.tablesOf(schema.catalog(), schema.name()).stream()
                .map(CatalogApi::info)
                .toList());
  }

  Object getTable(ApiRequest request) {
    return info(table(request.path("full_name")));
  }

  Object deleteTable(ApiRequest request) {
    Table table = table(request.path("full_name"));
    state.tables.remove(table.fullName());
    state.commits.remove(table.id());
    return Map.of();
  }

  Object temporaryTableCredentials(ApiRequest request) {
    GenerateTemporaryTableCredential ask = request.body(GenerateTemporaryTableCredential.class);
    String id = required(ask.getTableId(), "table_id");
    Table table = state.tableById(id);
    String location;
    if (table != null) {
      location = table.location();
    } else if (state.staging.containsKey(id)) {
      location = state.staging.get(id).location();
    } else {
      throw UnityCatalogException.notFound("TABLE", "Table not found: " + id);
    }
    TemporaryCredentials credentials = new TemporaryCredentials();
    String scheme = URI.create(location).getScheme();
    if (scheme != null && scheme.startsWith("s3")) {
      if (!s3Credentials.configured()) {
        throw UnityCatalogException.badRequest(
            "The server has no credentials to vend for " + location);
      }
      VendedS3Credential vended = s3Credentials.vend(location);
      credentials
          .awsTempCredentials(
              new AwsCredentials()
                  .accessKeyId(vended.accessKeyId())
                  .secretAccessKey(vended.secretAccessKey())
                  .sessionToken(vended.sessionToken()))
          .expirationTime(vended.expiresAt().toEpochMilli());
    }
    return credentials;
  }

  Table tableById(String id) {
    return state.tableById(id);
  }

  private Catalog catalog(String name) {
    Catalog catalog = state.catalogs.get(name);
    if (catalog == null) {
      throw UnityCatalogException.notFound("CATALOG", "Catalog not found: " + name);
    }
    return catalog;
  }

  private Schema schema(String fullName) {
    Schema schema = state.schemas.get(fullName);
    if (schema == null) {
      throw UnityCatalogException.notFound("SCHEMA", "Schema not found: " + fullName);
    }
    return schema;
  }

  private Table table(String fullName) {
    Table table = state.tables.get(fullName);
    if (table == null) {
      throw UnityCatalogException.notFound("TABLE", "Table not found: " + fullName);
    }
    return table;
  }

  private static String required(String value, String field) {
    if (value == null || value.isBlank()) {
      throw UnityCatalogException.badRequest(field + " is required");
    }
    return value;
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : Map.copyOf(map);
  }

  private static CatalogInfo info(Catalog catalog) {
    return new CatalogInfo()
        .id(catalog.id())
        .name(catalog.name())
        .comment(catalog.comment())
        .properties(catalog.properties())
        .createdAt(catalog.createdAt());
  }

  private static SchemaInfo info(Schema schema) {
    return new SchemaInfo()
        .schemaId(schema.id())
        .name(schema.name())
        .catalogName(schema.catalog())
        .fullName(schema.catalog() + "." + schema.name())
        .comment(schema.comment())
        .properties(schema.properties())
        .createdAt(schema.createdAt());
  }

  private static TableInfo info(Table table) {
    return new TableInfo()
        .tableId(table.id())
        .name(table.name())
        .catalogName(table.catalog())
        .schemaName(table.schema())
        .tableType(TableType.fromValue(table.type()))
        .dataSourceFormat(
            table.format() == null ? null : DataSourceFormat.fromValue(table.format()))
        .storageLocation(table.location())
        .columns(table.columns())
        .comment(table.comment())
        .properties(table.properties())
        .createdAt(table.createdAt())
        .updatedAt(table.updatedAt());
  }
}
