/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogTable;
import io.github.flinkdelta.uc.internal.UnityCatalogTableLocator;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiClientBuilder;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.client.model.ColumnInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/** Reads a Unity Catalog table back the way a catalog-aware reader does. */
public final class CatalogReads {

  private static final ObjectMapper JSON = new ObjectMapper();

  private CatalogReads() {}

  /** The table as the catalog knows it. */
  public static UnityCatalogTable table(UnityCatalogConnection connection, String name) {
    try (UnityCatalogClient client =
        new UnityCatalogClient(connection, HadoopConfigurations.of(Map.of()))) {
      return client.find(UnityCatalogTableName.parse(name)).orElseThrow();
    }
  }

  /** Every row of the catalog's latest version of the table. */
  public static List<List<Object>> rows(UnityCatalogConnection connection, String name) {
    return read(connection, name).rows();
  }

  /** The rows, and the version and schema they were read at. */
  public static Read read(UnityCatalogConnection connection, String name) {
    return read(connection, name, Map.of());
  }

  /** As {@link #read(UnityCatalogConnection, String)}, with storage options such as an endpoint. */
  public static Read read(
      UnityCatalogConnection connection, String name, Map<String, String> storageOptions) {
    UnityCatalogTableLocator locator =
        new UnityCatalogTableLocator(connection, table(connection, name));
    Configuration conf = locator.storageConf(HadoopConfigurations.of(storageOptions));
    Engine engine = DefaultEngine.create(conf);
    try (SnapshotSource snapshots = locator.snapshots(conf)) {
      Snapshot snapshot = snapshots.latest(engine);
      return new Read(
          DeltaTableReader.read(engine, snapshot),
          snapshot.getVersion(),
          snapshot.getSchema(),
          dataFiles(engine, snapshot));
    }
  }

  /**
   * The paths of the data files of every version of the table, from 0 to the catalog's latest, as
   * their add actions name them: files a later version removed too.
   */
  public static Set<String> dataFilesOfEveryVersion(
      UnityCatalogConnection connection, String name, Map<String, String> storageOptions) {
    UnityCatalogTableLocator locator =
        new UnityCatalogTableLocator(connection, table(connection, name));
    Configuration conf = locator.storageConf(HadoopConfigurations.of(storageOptions));
    Engine engine = DefaultEngine.create(conf);
    Set<String> paths = new TreeSet<>();
    try (TableHistory history = locator.history(conf)) {
      long latest = history.latest(engine).getVersion();
      for (long version = 0; version <= latest; version++) {
        paths.addAll(dataFiles(engine, history.atVersion(engine, version)));
      }
    }
    return paths;
  }

  /** The paths of the snapshot's data files, as its add actions name them. */
  private static List<String> dataFiles(Engine engine, Snapshot snapshot) {
    List<String> paths = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> files = batches.next().getRows()) {
          while (files.hasNext()) {
            Row file = files.next();
            Row add = file.getStruct(file.getSchema().indexOf("add"));
            paths.add(add.getString(add.getSchema().indexOf("path")));
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return paths;
  }

  /** The columns the catalog lists for the table ({@code GET /tables/{name}}). */
  public static List<ColumnInfo> columns(UnityCatalogConnection connection, String name)
      throws ApiException {
    ApiClient api =
        ApiClientBuilder.create()
            .uri(connection.endpoint())
            .tokenProvider(TokenProvider.create(connection.auth().tokenProviderConfig()))
            .build();
    return new TablesApi(api).getTable(name, null, null).getColumns();
  }

  /**
   * Name, Delta type (of its {@code type_json}), nullability and comment of each column the catalog
   * lists, to compare with {@link #describe(StructType)}.
   */
  public static List<List<Object>> describe(List<ColumnInfo> columns) throws Exception {
    List<List<Object>> described = new ArrayList<>();
    for (ColumnInfo column : columns) {
      JsonNode field = JSON.readTree(column.getTypeJson());
      described.add(
          Arrays.asList(
              column.getName(),
              field.get("type").asText(),
              column.getNullable(),
              column.getComment()));
    }
    return described;
  }

  /** Name, type, nullability and comment of each column of a Delta schema. */
  public static List<List<Object>> describe(StructType schema) {
    List<List<Object>> described = new ArrayList<>();
    for (StructField field : schema.fields()) {
      FieldMetadata metadata = field.getMetadata();
      described.add(
          Arrays.asList(
              field.getName(),
              field.getDataType().toString(),
              field.isNullable(),
              metadata.contains("comment") ? metadata.getString("comment") : null));
    }
    return described;
  }

  public record Read(
      List<List<Object>> rows, long version, StructType schema, List<String> dataFiles) {}
}
