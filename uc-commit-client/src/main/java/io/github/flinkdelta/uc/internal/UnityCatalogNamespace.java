/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.CatalogsApi;
import io.unitycatalog.client.api.SchemasApi;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.model.CreateSchema;
import io.unitycatalog.client.model.DataSourceFormat;
import io.unitycatalog.client.model.ListSchemasResponse;
import io.unitycatalog.client.model.ListTablesResponse;
import io.unitycatalog.client.model.SchemaInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schemas and tables of one Unity Catalog catalog: listing, creating and dropping them, as a
 * SQL catalog browses and changes them. Table contents go through {@link UnityCatalogClient}.
 */
public final class UnityCatalogNamespace {

  private final UnityCatalogConnection connection;
  private final ApiClient api;
  private final String catalog;

  UnityCatalogNamespace(UnityCatalogConnection connection, ApiClient api, String catalog) {
    this.connection = connection;
    this.api = api;
    this.catalog = catalog;
  }

  /** A schema with its comment and properties. */
  public record Schema(String name, String comment, Map<String, String> properties) {}

  /**
   * A table as the catalog describes it.
   *
   * @param table where it is and whether the catalog manages its commits
   * @param delta whether it is a Delta table
   */
  public record TableDescription(
      UnityCatalogTable table, boolean delta, String comment, Map<String, String> properties) {}

  /** The catalog's name. */
  public String catalog() {
    return catalog;
  }

  /** Fails, naming the catalog and the server, unless the catalog exists. */
  public void checkExists() {
    try {
      new CatalogsApi(api).getCatalog(catalog);
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        throw new IllegalArgumentException(
            "Unity Catalog at "
                + connection.endpoint()
                + " has no catalog '"
                + catalog
                + "'. Create it there, or name an existing one.",
            e);
      }
      throw UnityCatalogErrors.callFailed(connection, "find catalog " + catalog, e);
    }
  }

  /** The names of the catalog's schemas. */
  public List<String> schemas() {
    List<String> names = new ArrayList<>();
    String page = null;
    do {
      String token = page;
      ListSchemasResponse response =
          call(
              "list the schemas of " + catalog,
              () -> schemasApi().listSchemas(catalog, null, token));
      if (response.getSchemas() != null) {
        response.getSchemas().forEach(s -> names.add(s.getName()));
      }
      page = emptyToNull(response.getNextPageToken());
    } while (page != null);
    return names;
  }

  /** The schema of that name, or empty. */
  public Optional<Schema> schema(String name) {
    try {
      SchemaInfo info = schemasApi().getSchema(catalog + "." + name);
      return Optional.of(
          new Schema(
              info.getName(),
              info.getComment(),
              info.getProperties() == null ? Map.of() : info.getProperties()));
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw UnityCatalogErrors.callFailed(connection, "get schema " + catalog + "." + name, e);
    }
  }

  /** Creates a schema. */
  public void createSchema(String name, String comment, Map<String, String> properties) {
    call(
        "create schema " + catalog + "." + name,
        () ->
            schemasApi()
                .createSchema(
                    new CreateSchema()
                        .catalogName(catalog)
                        .name(name)
                        .comment(comment)
                        .properties(properties.isEmpty() ? null : properties)));
  }

  /** Drops a schema; with {@code cascade}, its tables too. */
  public void dropSchema(String name, boolean cascade) {
    call(
        "drop schema " + catalog + "." + name,
        () -> schemasApi().deleteSchema(catalog + "." + name, cascade));
  }

  /** The names of the tables in a schema. */
  public List<String> tables(String schema) {
    List<String> names = new ArrayList<>();
    String page = null;
    do {
      String token = page;
      ListTablesResponse response =
          call(
              "list the tables of " + catalog + "." + schema,
              () -> new TablesApi(api).listTables(catalog, schema, null, token));
      if (response.getTables() != null) {
        response.getTables().forEach(t -> names.add(t.getName()));
      }
      page = emptyToNull(response.getNextPageToken());
    } while (page != null);
    return names;
  }

  /** The table of that name, or empty. */
  public Optional<TableDescription> table(String schema, String table) {
    UnityCatalogTableName name = new UnityCatalogTableName(catalog, schema, table);
    TableInfo info;
    try {
      info = new TablesApi(api).getTable(name.toString(), null, null);
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw UnityCatalogErrors.callFailed(connection, "get table " + name, e);
    }
    return Optional.of(
        new TableDescription(
            catalogTable(name, info),
            info.getDataSourceFormat() == null
                || info.getDataSourceFormat() == DataSourceFormat.DELTA,
            info.getComment(),
            info.getProperties() == null ? Map.of() : info.getProperties()));
  }

  /** The table the catalog's answer describes. */
  static UnityCatalogTable catalogTable(UnityCatalogTableName name, TableInfo info) {
    return new UnityCatalogTable(
        name,
        info.getTableId(),
        info.getStorageLocation(),
        info.getTableType() == TableType.MANAGED);
  }

  /** Drops a table from the catalog. */
  public void dropTable(String schema, String table) {
    String name = catalog + "." + schema + "." + table;
    call("drop table " + name, () -> new TablesApi(api).deleteTable(name));
  }

  private SchemasApi schemasApi() {
    return new SchemasApi(api);
  }

  private <T> T call(String action, ApiCall<T> call) {
    try {
      return call.run();
    } catch (ApiException | RuntimeException e) {
      throw UnityCatalogErrors.callFailed(connection, action, e);
    }
  }

  private static String emptyToNull(String token) {
    return token == null || token.isEmpty() ? null : token;
  }

  @FunctionalInterface
  private interface ApiCall<T> {
    T run() throws ApiException;
  }
}
