/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.CommitLog;
import io.github.flinkdelta.testkit.CatalogState.Schema;
import io.github.flinkdelta.testkit.CatalogState.Staging;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.delta.model.DeltaCreateStagingTableRequest;
import io.unitycatalog.client.delta.model.DeltaCreateTableRequest;
import io.unitycatalog.client.delta.model.DeltaCredentialOperation;
import io.unitycatalog.client.delta.model.DeltaCredentialsResponse;
import io.unitycatalog.client.delta.model.DeltaLoadTableResponse;
import io.unitycatalog.client.delta.model.DeltaStagingTableResponse;
import io.unitycatalog.client.delta.model.DeltaStagingTableResponseRequiredProtocol;
import io.unitycatalog.client.delta.model.DeltaStagingTableResponseSuggestedProtocol;
import io.unitycatalog.client.delta.model.DeltaStorageCredential;
import io.unitycatalog.client.delta.model.DeltaStorageCredentialConfig;
import io.unitycatalog.client.delta.model.DeltaStructType;
import io.unitycatalog.client.delta.model.DeltaTableMetadata;
import io.unitycatalog.client.delta.model.DeltaTableType;
import io.unitycatalog.client.model.ColumnInfo;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The UC Delta API under {@code /delta/v1} (UC 0.5 and later) that delta-storage's {@code
 * UCDeltaTokenBasedRestClient} speaks (its configuration is {@link DeltaConfigApi}): staging tables
 * and their credentials, managed-table creation under the catalog's protocol contract, loading a
 * table with its unbackfilled commits, and updating it with {@code add-commit} and {@code
 * set-latest-backfilled-version} through the same {@link CommitCoordinator} as the legacy API.
 */
final class DeltaRestApi {

  private final CatalogState state;
  private final URI storageRoot;
  private final S3CredentialVendor s3Credentials;
  private final Clock clock;
  private final ObjectMapper mapper;

  DeltaRestApi(
      CatalogState state,
      URI storageRoot,
      S3CredentialVendor s3Credentials,
      Clock clock,
      ObjectMapper mapper) {
    this.state = state;
    this.storageRoot = storageRoot;
    this.s3Credentials = s3Credentials;
    this.clock = clock;
    this.mapper = mapper;
  }

  Object createStagingTable(ApiRequest request) {
    Schema schema = schema(request);
    String name = request.body(DeltaCreateStagingTableRequest.class).getName();
    if (name == null || name.isBlank()) {
      throw UnityCatalogException.badRequest("name is required");
    }
    Staging staging = state.stage(schema, name, storageRoot);
    String id = staging.id();
    String location = staging.location();
    Map<String, String> required = new LinkedHashMap<>(ManagedTableContract.REQUIRED_PROPERTIES);
    required.put(CatalogApi.TABLE_ID_PROPERTY, id);
    return new DeltaStagingTableResponse()
        .tableId(UUID.fromString(id))
        .tableType(DeltaTableType.MANAGED)
        .location(location)
        .storageCredentials(credentials(location).getStorageCredentials())
        .requiredProtocol(
            new DeltaStagingTableResponseRequiredProtocol()
                .minReaderVersion(3)
                .minWriterVersion(7)
                .readerFeatures(ManagedTableContract.REQUIRED_READER_FEATURES)
                .writerFeatures(ManagedTableContract.REQUIRED_WRITER_FEATURES))
        .suggestedProtocol(
            new DeltaStagingTableResponseSuggestedProtocol()
                .readerFeatures(ManagedTableContract.SUGGESTED_READER_FEATURES)
                .writerFeatures(ManagedTableContract.SUGGESTED_WRITER_FEATURES))
        .requiredProperties(required)
        .suggestedProperties(ManagedTableContract.SUGGESTED_PROPERTIES);
  }

  Object createTable(ApiRequest request) {
    Schema schema = schema(request);
    DeltaCreateTableRequest create = request.body(DeltaCreateTableRequest.class);
    String name = required(create.getName(), "name");
    String full = schema.catalog() + "." + schema.name() + "." + name;
    state.requireNoTable(full);
    String location = required(create.getLocation(), "location");
    if (create.getTableType() == null) {
      throw UnityCatalogException.badRequest("table-type is required");
    }
    Map<String, String> properties =
        create.getProperties() == null ? Map.of() : Map.copyOf(create.getProperties());
    String id;
    if (create.getTableType() == DeltaTableType.MANAGED) {
      ManagedTableContract.check(full, create, properties);
      Staging staging = stagingAt(location);
      if (staging == null) {
        throw UnityCatalogException.notFound("TABLE", "No staging table at " + location);
      }
      if (staging.committed()) {
        throw UnityCatalogException.stagingCommitted(staging.location());
      }
      id = staging.id();
      if (!id.equals(properties.get(CatalogApi.TABLE_ID_PROPERTY))) {
        throw UnityCatalogException.badRequest(
            "Property " + CatalogApi.TABLE_ID_PROPERTY + " must be the staging table id " + id);
      }
      // The staging table stays, used up: its credentials are still vended.
      state.staging.put(id, staging.asCommitted());
      state.commits.put(id, new CommitLog());
    } else {
      id = UUID.randomUUID().toString();
    }
    long now = clock.millis();
    Table table =
        new Table(
            id,
            schema.catalog(),
            schema.name(),
            name,
            create.getTableType().getValue(),
            "DELTA",
            Locations.normalize(location),
            CatalogColumns.fromDelta(
                mapper.valueToTree(create.getColumns()),
                create.getPartitionColumns() == null ? List.of() : create.getPartitionColumns(),
                mapper),
            create.getComment(),
            Map.copyOf(
                DeltaTableProperties.created(
                    properties, create.getProtocol(), create.getLastCommitTimestampMs())),
            now,
            now,
            create.getProtocol() == null ? null : mapper.valueToTree(create.getProtocol()));
    state.tables.put(full, table);
    return load(table);
  }

  Object loadTable(ApiRequest request) {
    return load(table(request));
  }

  Object updateTable(ApiRequest request) {
    Table table = table(request);
    TableUpdateRequest update = TableUpdateRequest.of(table, request, mapper);
    Commit commit = update.commit();
    Long backfilled = update.backfilled();
    String etag = update.etag();
    List<ColumnInfo> columns =
        columnsAfter(table.columns(), update.setColumns(), update.setPartitions());
    CommitLog log = state.commits.get(table.id());
    if ((commit != null || backfilled != null) && log == null) {
      throw UnityCatalogException.badRequest(
          "Table " + table.fullName() + " is not a managed table; its commits are not coordinated");
    }
    if (commit != null && CommitCoordinator.isReplay(log, commit)) {
      return load(table); // a replay: nothing else of the request applies, etag unchecked
    }
    if (etag != null && !etag.equals(table.etag())) {
      throw UnityCatalogException.requirementConflict(
          "Table " + table.fullName() + " changed: etag " + table.etag() + ", not " + etag);
    }
    if (commit != null || backfilled != null) {
      CommitCoordinator.apply(table, log, commit, backfilled);
    }
    if (update.metadataChanged()) {
      Map<String, String> properties = update.properties();
      if (commit != null) {
        DeltaTableProperties.stampCommit(properties, commit.version(), commit.timestamp());
      }
      table =
          table.withMetadata(
              properties, columns, update.comment(), update.protocol(), clock.millis());
      state.tables.put(table.fullName(), table);
    }
    return load(table);
  }

  /** {@code HEAD} of a table: 204 when it exists. */
  Object tableExists(ApiRequest request) {
    table(request);
    return ApiResponse.noContent();
  }

  /** {@code DELETE} of a table: 204, and the table and its commit log are gone. */
  Object deleteTable(ApiRequest request) {
    Table table = table(request);
    state.tables.remove(table.fullName());
    state.commits.remove(table.id());
    return ApiResponse.noContent();
  }

  Object tableCredentials(ApiRequest request) {
    return credentials(table(request).location());
  }

  Object stagingCredentials(ApiRequest request) {
    Staging staging = state.staging.get(request.path("table_id"));
    if (staging == null) {
      throw UnityCatalogException.notFound(
          "TABLE", "Staging table not found: " + request.path("table_id"));
    }
    return credentials(staging.location());
  }

  private DeltaCredentialsResponse credentials(String location) {
    DeltaStorageCredentialConfig config = new DeltaStorageCredentialConfig();
    DeltaStorageCredential credential =
        new DeltaStorageCredential()
            .prefix(location)
            .operation(DeltaCredentialOperation.READ_WRITE)
            .config(config);
    String scheme = URI.create(location).getScheme();
    if (scheme != null && scheme.startsWith("s3") && s3Credentials.configured()) {
      VendedS3Credential vended = s3Credentials.vend(location);
      config
          .s3AccessKeyId(vended.accessKeyId())
          .s3SecretAccessKey(vended.secretAccessKey())
          .s3SessionToken(vended.sessionToken());
      credential.expirationTimeMs(vended.expiresAt().toEpochMilli());
    }
    return new DeltaCredentialsResponse().storageCredentials(new ArrayList<>(List.of(credential)));
  }

  private DeltaLoadTableResponse load(Table table) {
    CommitLog log = state.commits.get(table.id());
    DeltaTableMetadata metadata =
        new DeltaTableMetadata()
            .etag(table.etag())
            .tableType(DeltaTableType.fromValue(table.type()))
            .tableUuid(UUID.fromString(table.id()))
            .location(table.location())
            .createdTime(table.createdAt())
            .updatedTime(table.updatedAt())
            .columns(
                mapper.convertValue(
                    CatalogColumns.toDelta(table.columns(), mapper), DeltaStructType.class))
            .partitionColumns(new ArrayList<>(CatalogColumns.partitionColumns(table.columns())))
            .properties(new HashMap<>(table.properties()))
            .lastCommitVersion(
                DeltaTableProperties.longValue(
                    table.properties(), DeltaTableProperties.LAST_UPDATE_VERSION))
            .lastCommitTimestampMs(
                DeltaTableProperties.longValue(
                    table.properties(), DeltaTableProperties.LAST_COMMIT_TIMESTAMP));
    DeltaLoadTableResponse response = new DeltaLoadTableResponse().metadata(metadata);
    if (log != null) {
      response.latestTableVersion(log.latestVersion);
      for (Commit c : CommitCoordinator.unbackfilled(log, 0, Long.MAX_VALUE)) {
        response.addCommitsItem(
            new io.unitycatalog.client.delta.model.DeltaCommit()
                .version(c.version())
                .timestamp(c.timestamp())
                .fileName(c.fileName())
                .fileSize(c.fileSize())
                .fileModificationTimestamp(c.modificationTime()));
      }
    }
    return response;
  }

  /**
   * The columns after {@code set-columns} and {@code set-partition-columns}, either of which may be
   * absent (null): the one absent keeps what the table has.
   */
  private List<ColumnInfo> columnsAfter(
      List<ColumnInfo> current, JsonNode setColumns, List<String> setPartitions) {
    List<String> partitions =
        setPartitions != null ? setPartitions : CatalogColumns.partitionColumns(current);
    return setColumns != null
        ? CatalogColumns.fromDelta(setColumns, partitions, mapper)
        : CatalogColumns.withPartitionColumns(current, partitions);
  }

  private Staging stagingAt(String location) {
    for (Staging staging : state.staging.values()) {
      if (Locations.same(staging.location(), location)) {
        return staging;
      }
    }
    return null;
  }

  private Schema schema(ApiRequest request) {
    String catalog = request.path("catalog");
    if (!state.catalogs.containsKey(catalog)) {
      throw UnityCatalogException.notFound("CATALOG", "Catalog not found: " + catalog);
    }
    Schema schema = state.schemas.get(catalog + "." + request.path("schema"));
    if (schema == null) {
      throw UnityCatalogException.notFound(
          "SCHEMA", "Schema not found: " + catalog + "." + request.path("schema"));
    }
    return schema;
  }

  private Table table(ApiRequest request) {
    Schema schema = schema(request);
    String full = schema.catalog() + "." + schema.name() + "." + request.path("table");
    Table table = state.tables.get(full);
    if (table == null) {
      throw UnityCatalogException.notFound("TABLE", "Table not found: " + full);
    }
    return table;
  }

  private static String required(String value, String field) {
    if (value == null || value.isBlank()) {
      throw UnityCatalogException.badRequest(field + " is required");
    }
    return value;
  }
}
