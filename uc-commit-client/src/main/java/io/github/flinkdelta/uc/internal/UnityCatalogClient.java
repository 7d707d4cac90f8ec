/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.transaction.DataLayoutSpec;
import io.delta.kernel.types.StructType;
import io.delta.kernel.unitycatalog.UCCatalogManagedClient;
import io.delta.kernel.unitycatalog.UCTableIdentifier;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.storage.commit.TableIdentifier;
import io.delta.storage.commit.uccommitcoordinator.UCDeltaClient;
import io.delta.storage.commit.uccommitcoordinator.UCDeltaModels;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.checkpoint.VersionChecksums;
import io.github.flinkdelta.uc.UnityCatalogAccessDeniedException;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.model.CreateStagingTable;
import io.unitycatalog.client.model.GenerateTemporaryTableCredential;
import io.unitycatalog.client.model.StagingTableInfo;
import io.unitycatalog.client.model.TableInfo;
import io.unitycatalog.client.model.TableOperation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's view of a Unity Catalog server: finds tables by name, creates managed Delta
 * tables (staging table, version 0 through Kernel, then registration), and loads snapshots whose
 * commits the catalog ratifies. Catalog-managed commits go through Kernel's {@link
 * UCCatalogManagedClient} on delta-storage's UC Delta API client, or on its legacy commit API
 * client with the table's columns added to schema changes ({@link LegacyCommitClient}).
 *
 * <p>The token never appears in logs or messages.
 */
public final class UnityCatalogClient implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(UnityCatalogClient.class);

  /** Retries of the commit that registers a new managed table. */
  private static final int CREATE_RETRIES = 2;

  private final UnityCatalogConnection connection;
  private final CatalogSession session;
  private boolean closed;

  /**
   * A client of {@code connection}; clients of the same connection and the same {@code hadoopConf}
   * instance share their HTTP client and commit clients while any of them is open ({@link
   * CatalogSession}).
   */
  public UnityCatalogClient(UnityCatalogConnection connection, Configuration hadoopConf) {
    this.connection = connection;
    this.session = CatalogSession.acquire(connection, hadoopConf);
  }

  /** The table of that name, or empty when the catalog has none. */
  public Optional<UnityCatalogTable> find(UnityCatalogTableName name) {
    try {
      TableInfo info = session.tables().getTable(name.toString(), null, null);
      return Optional.of(UnityCatalogNamespace.catalogTable(name, info));
    } catch (ApiException e) {
      if (e.getCode() == 404 && UnityCatalogErrors.fromCatalog(e)) {
        return Optional.empty();
      }
      throw UnityCatalogErrors.callFailed(connection, "look up table " + name, e);
    } catch (RuntimeException e) {
      // The OAuth token provider fails with a bare RuntimeException.
      throw UnityCatalogErrors.callFailed(connection, "look up table " + name, e);
    }
  }

  /**
   * Fails unless this connection may write {@code table}: it asks the catalog for read-write
   * credentials, which the catalog grants only to a principal with MODIFY on the table. A job
   * checks this when it starts, so a read-only token fails then and not at the first commit.
   */
  public void requireWritable(UnityCatalogTable table) {
    try {
      session
          .credentials()
          .generateTemporaryTableCredentials(
              new GenerateTemporaryTableCredential()
                  .tableId(table.id())
                  .operation(TableOperation.READ_WRITE));
    } catch (ApiException e) {
      if (e.getCode() == 403) {
        throw new UnityCatalogAccessDeniedException(
            String.format(
                "Unity Catalog at %s lets this connection read %s but not write it (HTTP 403 for"
                    + " read-write credentials). Grant its principal MODIFY on the table (with USE"
                    + " CATALOG and USE SCHEMA), or connect with a token that has it.",
                connection.endpoint(), table.name()),
            e);
      }
      throw UnityCatalogErrors.callFailed(connection, "check write access to " + table.name(), e);
    } catch (RuntimeException e) {
      throw UnityCatalogErrors.callFailed(connection, "check write access to " + table.name(), e);
    }
  }

  /**
   * Creates a managed Delta table: a staging table, version 0 written through Kernel with the
   * protocol and properties the catalog requires, then registration under {@code name}.
   */
  public UnityCatalogTable createManagedTable(
      Configuration hadoopConf,
      UnityCatalogTableName name,
      StructType schema,
      List<String> partitionColumns,
      Map<String, String> properties) {
    Map<String, String> tableProperties = new HashMap<>(properties);
    String id;
    String location;
    UCDeltaClient deltaClient = session.deltaClient();
    if (deltaClient != null) {
      UCDeltaModels.StagingTableInfo staging;
      try {
        staging = deltaClient.createStagingTable(identifier(name));
      } catch (IOException e) {
        throw UnityCatalogErrors.callFailed(connection, "create staging table " + name, e);
      }
      id = staging.getTableId().toString();
      location = staging.getLocation();
      // The UC Delta API requires the protocol and properties it lists for managed tables.
      tableProperties.putAll(staging.getRequiredProperties());
      if (staging.getRequiredProtocol() != null) {
        staging
            .getRequiredProtocol()
            .getReaderFeatures()
            .forEach(f -> tableProperties.put("delta.feature." + f, "supported"));
        staging
            .getRequiredProtocol()
            .getWriterFeatures()
            .forEach(f -> tableProperties.put("delta.feature." + f, "supported"));
      }
    } else {
      StagingTableInfo staging;
      try {
        staging =
            session
                .tables()
                .createStagingTable(
                    new CreateStagingTable()
                        .name(name.table())
                        .catalogName(name.catalog())
                        .schemaName(name.schema()));
      } catch (ApiException e) {
        throw UnityCatalogErrors.callFailed(connection, "create staging table " + name, e);
      }
      id = staging.getId();
      location = staging.getStagingLocation();
    }
    Engine engine =
        DefaultEngine.create(
            VendedCredentials.forStagingTable(
                connection, hadoopConf, id, location, deltaClient != null));
    List<Column> partitions = new ArrayList<>();
    partitionColumns.forEach(c -> partitions.add(new Column(c)));
    Transaction create =
        session
            .kernelClient()
            .buildCreateTableTransaction(
                id,
                location,
                schema,
                TableReference.ENGINE_INFO,
                new UCTableIdentifier(name.catalog(), name.schema(), name.table()))
            .withTableProperties(tableProperties)
            .withDataLayoutSpec(
                partitions.isEmpty()
                    ? DataLayoutSpec.noDataLayout()
                    : DataLayoutSpec.partitioned(partitions))
            // A name another writer registered first fails every retry alike (409): the caller
            // finds that table instead. Two retries are for a catalog that answers once in error.
            .withMaxRetries(CREATE_RETRIES)
            .build(engine);
    create
        .commit(engine, CloseableIterable.emptyIterable())
        .getPostCommitSnapshot()
        .ifPresent(created -> VersionChecksums.afterCommit(engine, created));
    LOG.info("Created Unity Catalog managed table {} ({}) at {}", name, id, location);
    return new UnityCatalogTable(name, id, location, true);
  }

  /**
   * Creates the schema of {@code table} when the catalog lacks it; another writer creating it at
   * the same time is fine.
   *
   * @throws IllegalStateException naming the schema and the privilege to grant when the catalog
   *     refuses (HTTP 403)
   */
  public void ensureSchema(UnityCatalogTableName table) {
    UnityCatalogNamespace namespace = namespace(table.catalog());
    if (namespace.schema(table.schema()).isPresent()) {
      return;
    }
    try {
      namespace.createSchema(
          table.schema(), "Created by the Flink Delta sink for " + table, Map.of());
      LOG.info(
          "Created schema {}.{} in Unity Catalog for {}", table.catalog(), table.schema(), table);
    } catch (IllegalStateException e) {
      if (namespace.schema(table.schema()).isPresent()) {
        return;
      }
      if (e.getCause() instanceof ApiException api && api.getCode() == 403) {
        throw new UnityCatalogAccessDeniedException(
            String.format(
                "Unity Catalog at %s refused to create schema %s.%s for table %s (HTTP 403): its"
                    + " principal may not create schemas there. Grant it USE CATALOG and CREATE"
                    + " SCHEMA on catalog %s, or create the schema beforehand.",
                connection.endpoint(), table.catalog(), table.schema(), table, table.catalog()),
            e);
      }
      throw e;
    }
  }

  /** The schemas and tables of {@code catalog}, through this client's connection. */
  public UnityCatalogNamespace namespace(String catalog) {
    return new UnityCatalogNamespace(connection, session.api(), catalog);
  }

  /** The latest snapshot of a managed table, with the catalog's ratified commits. */
  public Snapshot loadSnapshot(Engine engine, UnityCatalogTable table) {
    return loadSnapshot(engine, table, Optional.empty(), Optional.empty());
  }

  /**
   * A snapshot of a managed table, with the catalog's ratified commits: of {@code version}, or of
   * the last version committed at or before {@code timestampMillis}, or the latest when neither is
   * given.
   */
  public Snapshot loadSnapshot(
      Engine engine,
      UnityCatalogTable table,
      Optional<Long> version,
      Optional<Long> timestampMillis) {
    return session
        .kernelClient()
        .loadSnapshot(
            engine, table.id(), table.location(), identifier(table), version, timestampMillis);
  }

  /** The commits of a managed table from {@code start} through {@code end}, both included. */
  public CommitRange loadCommitRange(Engine engine, UnityCatalogTable table, long start, long end) {
    return session
        .kernelClient()
        .loadCommitRange(
            engine,
            table.id(),
            table.location(),
            identifier(table),
            Optional.of(start),
            Optional.empty(),
            Optional.of(end),
            Optional.empty());
  }

  private static UCTableIdentifier identifier(UnityCatalogTable table) {
    return new UCTableIdentifier(
        table.name().catalog(), table.name().schema(), table.name().table());
  }

  /** Which commit API this client uses, after detection. */
  public UnityCatalogConnection.CommitApi commitApi() {
    return session.deltaClient() != null
        ? UnityCatalogConnection.CommitApi.DELTA_V1
        : UnityCatalogConnection.CommitApi.LEGACY;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      session.release();
    }
  }

  private static TableIdentifier identifier(UnityCatalogTableName name) {
    return new TableIdentifier(new String[] {name.catalog(), name.schema()}, name.table());
  }
}
