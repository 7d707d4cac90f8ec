/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.CommitLog;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.model.ColumnInfo;
import io.unitycatalog.client.model.DeltaCommit;
import io.unitycatalog.client.model.DeltaCommitInfo;
import io.unitycatalog.client.model.DeltaGetCommits;
import io.unitycatalog.client.model.DeltaGetCommitsResponse;
import io.unitycatalog.client.model.DeltaMetadata;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The legacy commits API, {@code /delta/preview/commits} (UC 0.3.1 and later), in front of the
 * {@link CommitCoordinator}. An unknown table is 404; a table that is not managed, or a commit
 * whose URI is not the table's, is 400. Listing does not check the URI, as the real server does
 * not. A commit may carry the table's new {@code metadata} (description, properties, columns),
 * which the catalog applies with it, and not when the commit is a replay.
 */
final class CommitsApi {

  private final CatalogState state;
  private final Clock clock;

  CommitsApi(CatalogState state, Clock clock) {
    this.state = state;
    this.clock = clock;
  }

  Object commit(ApiRequest request) {
    DeltaCommit commit = request.body(DeltaCommit.class);
    if (isBlank(commit.getTableId()) || isBlank(commit.getTableUri())) {
      throw UnityCatalogException.badRequest("table_id and table_uri are required");
    }
    Table table = managedTable(commit.getTableId());
    if (!Locations.same(table.location(), commit.getTableUri())) {
      throw UnityCatalogException.badRequest(
          "table_uri " + commit.getTableUri() + " is not the location of " + table.fullName());
    }
    DeltaCommitInfo info = commit.getCommitInfo();
    DeltaMetadata metadata = commit.getMetadata();
    checkMetadata(commit.getTableId(), info, metadata);
    boolean applied =
        CommitCoordinator.apply(
            table,
            state.commits.get(table.id()),
            info == null
                ? null
                : new Commit(
                    orZero(info.getVersion()),
                    orZero(info.getTimestamp()),
                    info.getFileName(),
                    orZero(info.getFileSize()),
                    orZero(info.getFileModificationTimestamp())),
            commit.getLatestBackfilledVersion());
    if (applied && metadata != null) {
      state.tables.put(table.fullName(), withMetadata(table, metadata));
    }
    return ApiResponse.text("200 OK");
  }

  /**
   * The real server's checks of a commit's {@code metadata}: only with a commit (not with a
   * backfill alone), holding a description, properties or columns, and properties that name the
   * table's id.
   */
  private static void checkMetadata(String tableId, DeltaCommitInfo info, DeltaMetadata metadata) {
    if (metadata == null) {
      return;
    }
    if (info == null) {
      throw UnityCatalogException.badRequest("metadata shouldn't be set for backfill only commit");
    }
    Map<String, String> properties = properties(metadata);
    boolean hasColumns =
        metadata.getSchema() != null
            && metadata.getSchema().getColumns() != null
            && !metadata.getSchema().getColumns().isEmpty();
    if (metadata.getDescription() == null
        && (properties == null || properties.isEmpty())
        && !hasColumns) {
      throw UnityCatalogException.badRequest(
          "At least one of description, properties, or schema must be set in commit.metadata");
    }
    if (properties != null) {
      String id = properties.get(CatalogApi.TABLE_ID_PROPERTY);
      if (id == null) {
        throw UnityCatalogException.badRequest(
            "Properties does not contain " + CatalogApi.TABLE_ID_PROPERTY + ".");
      }
      if (!id.equals(tableId)) {
        throw UnityCatalogException.badRequest(
            String.format(
                "the table id (%s) does not match the properties %s(%s).",
                tableId, CatalogApi.TABLE_ID_PROPERTY, id));
      }
    }
  }

  /**
   * The table after an accepted commit's metadata, as the real server applies it: the properties
   * sent replace all the table's properties, the columns sent replace all its columns (as sent, so
   * a column's partition index and comment are what the client says), and a description becomes the
   * table's comment.
   */
  private Table withMetadata(Table table, DeltaMetadata metadata) {
    Map<String, String> properties = properties(metadata);
    return table.withMetadata(
        properties != null ? properties : table.properties(),
        metadata.getSchema() != null ? orEmpty(metadata.getSchema().getColumns()) : table.columns(),
        metadata.getDescription() != null ? metadata.getDescription() : table.comment(),
        table.protocol(),
        clock.millis());
  }

  private static Map<String, String> properties(DeltaMetadata metadata) {
    return metadata.getProperties() == null ? null : metadata.getProperties().getProperties();
  }

  private static List<ColumnInfo> orEmpty(List<ColumnInfo> columns) {
    return columns == null ? List.of() : columns;
  }

  Object getCommits(ApiRequest request) {
    DeltaGetCommits ask = request.body(DeltaGetCommits.class);
    if (isBlank(ask.getTableId()) || ask.getStartVersion() == null || ask.getStartVersion() < 0) {
      throw UnityCatalogException.badRequest("table_id and a start_version >= 0 are required");
    }
    long start = ask.getStartVersion();
    long end = ask.getEndVersion() == null ? Long.MAX_VALUE : ask.getEndVersion();
    if (end < start) {
      throw UnityCatalogException.badRequest("end_version must not be below start_version");
    }
    CommitLog log = state.commits.get(managedTable(ask.getTableId()).id());
    long last =
        log.unbackfilled.isEmpty()
            ? end
            : Math.min(
                end,
                Math.max(start, log.unbackfilled.firstKey())
                    + CommitCoordinator.MAX_UNBACKFILLED
                    - 1);
    List<DeltaCommitInfo> commits =
        CommitCoordinator.unbackfilled(log, start, last).stream()
            .map(
                c ->
                    new DeltaCommitInfo()
                        .version(c.version())
                        .timestamp(c.timestamp())
                        .fileName(c.fileName())
                        .fileSize(c.fileSize())
                        .fileModificationTimestamp(c.modificationTime()))
            .toList();
    return new DeltaGetCommitsResponse().commits(commits).latestTableVersion(log.latestVersion);
  }

  private Table managedTable(String id) {
    Table table = state.tableById(id);
    if (table == null) {
      throw UnityCatalogException.notFound("TABLE", "Table not found: " + id);
    }
    if (!"MANAGED".equals(table.type()) || !state.commits.containsKey(id)) {
      throw UnityCatalogException.badRequest(
          "Table " + table.fullName() + " is not a managed table; its commits are not coordinated");
    }
    return table;
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
