package io.github.flinkdelta.testkit;

import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.CommitLog;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.model.DeltaCommit;
import io.unitycatalog.client.model.DeltaCommitInfo;
import io.unitycatalog.client.model.DeltaGetCommits;
import io.unitycatalog.client.model.DeltaGetCommitsResponse;
import java.util.List;

/**
 * The legacy commits API, {@code /delta/preview/commits} (UC 0.3.1 and later), in front of the
 * {@link CommitCoordinator}. An unknown table is 404; a table that is not managed, or a commit
 * whose URI is not the table's, is 400. Listing does not check the URI, as the real server does
 * not.
 */
final class CommitsApi {

  private final CatalogState state;

  CommitsApi(CatalogState state) {
    this.state = state;
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
    return ApiResponse.text("200 OK");
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
