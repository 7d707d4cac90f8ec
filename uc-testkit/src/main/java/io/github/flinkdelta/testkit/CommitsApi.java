package io.github.flinkdelta.testkit;

import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.CommitLog;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.model.DeltaCommit;
import io.unitycatalog.client.model.DeltaCommitInfo;
import io.unitycatalog.client.model.DeltaGetCommits;
import io.unitycatalog.client.model.DeltaGetCommitsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * The commit coordinator behind {@code /delta/preview/commits}, held to Unity Catalog OSS v0.6.0's
 * rules:
 *
 * <ul>
 *   <li>a commit of version v needs the table at v - 1 (a gap is 400); the first commit of a table
 *       may be any version from 1;
 *   <li>resending a tracked version with the same file name is a no-op 200, with another file a
 *       409; a version already backfilled and forgotten is always 409;
 *   <li>at most {@value #MAX_UNBACKFILLED} unbackfilled commits per table (the next is 429), where
 *       a backfill sent with the commit counts first;
 *   <li>a backfilled version beyond the latest (before this commit) is 400, and so is a backfill
 *       alone on a table without commits;
 *   <li>an unknown table is 404; a table that is not managed, or a URI that is not the table's, is
 *       400;
 *   <li>a table without commits reports latest version 0.
 * </ul>
 */
final class CommitsApi {

  static final int MAX_UNBACKFILLED = 10;

  private final CatalogState state;

  CommitsApi(CatalogState state) {
    this.state = state;
  }

  Object commit(ApiRequest request) {
    DeltaCommit commit = request.body(DeltaCommit.class);
    if (isBlank(commit.getTableId()) || isBlank(commit.getTableUri())) {
      throw UcException.badRequest("table_id and table_uri are required");
    }
    Table table = managedTable(commit.getTableId());
    if (!Locations.same(table.location(), commit.getTableUri())) {
      throw UcException.badRequest(
          "table_uri " + commit.getTableUri() + " is not the location of " + table.fullName());
    }
    CommitLog log = state.commits.get(table.id());
    DeltaCommitInfo info = commit.getCommitInfo();
    Long backfilled = commit.getLatestBackfilledVersion();
    if (info == null) {
      if (backfilled == null) {
        throw UcException.badRequest(
            "A commit without commit_info needs latest_backfilled_version");
      }
      backfillOnly(table, log, backfilled);
    } else {
      validate(info);
      addCommit(table, log, info, backfilled);
    }
    return ApiResponse.text("200 OK");
  }

  Object getCommits(ApiRequest request) {
    DeltaGetCommits ask = request.body(DeltaGetCommits.class);
    if (isBlank(ask.getTableId()) || ask.getStartVersion() == null || ask.getStartVersion() < 0) {
      throw UcException.badRequest("table_id and a start_version >= 0 are required");
    }
    long start = ask.getStartVersion();
    long end = ask.getEndVersion() == null ? Long.MAX_VALUE : ask.getEndVersion();
    if (end < start) {
      throw UcException.badRequest("end_version must not be below start_version");
    }
    // The real server does not check table_uri here.
    CommitLog log = state.commits.get(managedTable(ask.getTableId()).id());
    List<DeltaCommitInfo> commits = new ArrayList<>();
    if (!log.unbackfilled.isEmpty()) {
      long oldest = log.unbackfilled.firstKey();
      long last = Math.min(end, Math.max(start, oldest) + MAX_UNBACKFILLED - 1);
      NavigableMap<Long, Commit> window =
          log.unbackfilled.subMap(start, true, last, true).descendingMap();
      for (Commit c : window.values()) {
        if (c.version() == log.latestBackfilledVersion) {
          continue; // kept only as the marker of the latest version
        }
        commits.add(
            new DeltaCommitInfo()
                .version(c.version())
                .timestamp(c.timestamp())
                .fileName(c.fileName())
                .fileSize(c.fileSize())
                .fileModificationTimestamp(c.modificationTime()));
      }
    }
    return new DeltaGetCommitsResponse().commits(commits).latestTableVersion(log.latestVersion);
  }

  private void addCommit(Table table, CommitLog log, DeltaCommitInfo info, Long backfilled) {
    long version = info.getVersion();
    boolean empty = log.latestVersion == 0 && log.unbackfilled.isEmpty();
    if (!empty) {
      if (version <= log.latestVersion) {
        Commit tracked = log.unbackfilled.get(version);
        if (tracked != null
            && version != log.latestBackfilledVersion
            && tracked.fileName().equals(info.getFileName())) {
          return; // an accepted commit sent again: nothing else of the request applies
        }
        throw UcException.commitConflict(
            "Commit version already accepted. Current table version is " + log.latestVersion);
      }
      if (version != log.latestVersion + 1) {
        throw UcException.badRequest(
            String.format(
                "Commit version must be the next version after the latest commit %d, but got %d",
                log.latestVersion, version));
      }
      if (backfilled != null && backfilled > log.latestVersion) {
        throw UcException.badRequest(
            String.format(
                "Backfilled version %d is beyond the latest version %d of %s",
                backfilled, log.latestVersion, table.fullName()));
      }
      long first = log.unbackfilled.isEmpty() ? version : log.unbackfilled.firstKey();
      long effectiveBackfilled =
          backfilled != null && backfilled >= first
              ? backfilled
              : log.latestBackfilledVersion >= first ? log.latestBackfilledVersion : first - 1;
      if (version - effectiveBackfilled > MAX_UNBACKFILLED) {
        throw UcException.tooManyUnbackfilled(
            String.format(
                "Table %s has too many unbackfilled commits; backfill before committing version %d",
                table.fullName(), version));
      }
      if (backfilled != null) {
        log.latestBackfilledVersion = Math.max(log.latestBackfilledVersion, backfilled);
        log.unbackfilled.headMap(Math.min(backfilled, version - 1), true).clear();
      }
    }
    // On a table without commits any version from 1 is accepted and a backfill is ignored.
    log.unbackfilled.put(
        version,
        new Commit(
            version,
            info.getTimestamp(),
            info.getFileName(),
            info.getFileSize(),
            info.getFileModificationTimestamp()));
    log.latestVersion = version;
  }

  private void backfillOnly(Table table, CommitLog log, long backfilled) {
    if (log.latestVersion == 0 && log.unbackfilled.isEmpty()) {
      throw UcException.badRequest(
          "Backfill request requires a prior commit; the commit log of "
              + table.fullName()
              + " is empty.");
    }
    if (backfilled > log.latestVersion) {
      throw UcException.badRequest(
          String.format(
              "Backfilled version %d is beyond the latest version %d of %s",
              backfilled, log.latestVersion, table.fullName()));
    }
    if (log.unbackfilled.isEmpty() || backfilled < log.unbackfilled.firstKey()) {
      return;
    }
    log.latestBackfilledVersion = Math.max(log.latestBackfilledVersion, backfilled);
    // The newest commit stays, as the marker of the table's latest version.
    log.unbackfilled.headMap(Math.min(backfilled, log.latestVersion - 1), true).clear();
  }

  private static void validate(DeltaCommitInfo info) {
    requirePositive(info.getVersion(), "version");
    requirePositive(info.getTimestamp(), "timestamp");
    requirePositive(info.getFileSize(), "file_size");
    requirePositive(info.getFileModificationTimestamp(), "file_modification_timestamp");
    if (isBlank(info.getFileName())) {
      throw UcException.badRequest("Field must not be empty: file_name");
    }
  }

  private static void requirePositive(Long value, String field) {
    if (value == null || value <= 0) {
      throw UcException.badRequest("Field must be positive: " + field);
    }
  }

  private Table managedTable(String id) {
    Table table = state.tableById(id);
    if (table == null) {
      throw UcException.notFound("TABLE", "Table not found: " + id);
    }
    if (!"MANAGED".equals(table.type()) || !state.commits.containsKey(id)) {
      throw UcException.badRequest(
          "Table " + table.fullName() + " is not a managed table; its commits are not coordinated");
    }
    return table;
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
