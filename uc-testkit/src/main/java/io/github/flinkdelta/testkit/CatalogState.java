/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.unitycatalog.client.model.ColumnInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Everything the catalog knows: catalogs, schemas, tables, staging tables and each managed table's
 * unbackfilled commits. Plain values, so the whole state can be written to and read from one JSON
 * file when the server persists it.
 */
final class CatalogState {

  /** A catalog. */
  record Catalog(
      String id, String name, String comment, Map<String, String> properties, long createdAt) {}

  /** A schema in a catalog. */
  record Schema(
      String id,
      String catalog,
      String name,
      String comment,
      Map<String, String> properties,
      long createdAt) {}

  /**
   * A table reserved before its first version exists. Once a table is created from it, it is kept
   * as {@code committed}: its credentials are still vended, but no second table can be created from
   * it.
   */
  record Staging(
      String id, String catalog, String schema, String name, String location, boolean committed) {
    Staging asCommitted() {
      return new Staging(id, catalog, schema, name, location, true);
    }
  }

  /**
   * A table. Its columns are the one store of its schema and partition columns (see {@link
   * CatalogColumns}); tables created through the UC Delta API also keep the protocol the client
   * sent.
   */
  record Table(
      String id,
      String catalog,
      String schema,
      String name,
      String type,
      String format,
      String location,
      List<ColumnInfo> columns,
      String comment,
      Map<String, String> properties,
      long createdAt,
      long updatedAt,
      JsonNode protocol) {
    String fullName() {
      return catalog + "." + schema + "." + name;
    }

    String etag() {
      return "etag-" + updatedAt;
    }

    Table withMetadata(
        Map<String, String> newProperties,
        List<ColumnInfo> newColumns,
        String newComment,
        JsonNode newProtocol,
        long now) {
      return new Table(
          id,
          catalog,
          schema,
          name,
          type,
          format,
          location,
          List.copyOf(newColumns),
          newComment,
          Map.copyOf(newProperties),
          createdAt,
          now,
          newProtocol);
    }
  }

  /** One ratified commit of a managed table. */
  record Commit(
      long version, long timestamp, String fileName, long fileSize, long modificationTime) {}

  /** The commit coordination state of one managed table. */
  static final class CommitLog {
    public long latestVersion;
    public long latestBackfilledVersion;
    public TreeMap<Long, Commit> unbackfilled = new TreeMap<>();
  }

  public Map<String, Catalog> catalogs = new TreeMap<>();
  public Map<String, Schema> schemas = new TreeMap<>();
  public Map<String, Table> tables = new TreeMap<>();
  public Map<String, Staging> staging = new TreeMap<>();
  public Map<String, CommitLog> commits = new TreeMap<>();

  /**
   * Reserves a staging table (and its storage location, {@code <root>/tables/<id>}) for a table not
   * yet in {@code schema}.
   */
  Staging stage(Schema schema, String name, URI storageRoot) {
    requireNoTable(schema.catalog() + "." + schema.name() + "." + name);
    String id = UUID.randomUUID().toString();
    String location = Locations.normalize(storageRoot.resolve("tables/" + id).toString());
    Staging staging = new Staging(id, schema.catalog(), schema.name(), name, location, false);
    this.staging.put(id, staging);
    return staging;
  }

  void requireNoTable(String fullName) {
    if (tables.containsKey(fullName)) {
      throw UnityCatalogException.alreadyExists("TABLE", "Table already exists: " + fullName);
    }
  }

  Table tableById(String id) {
    for (Table table : tables.values()) {
      if (table.id().equals(id)) {
        return table;
      }
    }
    return null;
  }

  List<Table> tablesOf(String catalog, String schema) {
    List<Table> found = new ArrayList<>();
    for (Table table : tables.values()) {
      if (table.catalog().equals(catalog) && table.schema().equals(schema)) {
        found.add(table);
      }
    }
    return found;
  }

  void save(Path directory, ObjectMapper mapper) {
    try {
      Files.createDirectories(directory);
      Path temp = directory.resolve("state.json.tmp");
      mapper.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), this);
      Files.move(
          temp,
          directory.resolve("state.json"),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot persist the catalog state to " + directory, e);
    }
  }

  static CatalogState load(Path directory, ObjectMapper mapper) {
    Path file = directory.resolve("state.json");
    if (!Files.exists(file)) {
      return new CatalogState();
    }
    try {
      return mapper.readValue(file.toFile(), CatalogState.class);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the catalog state in " + file, e);
    }
  }
}
