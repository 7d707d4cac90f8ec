/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.CommitLog;
import io.github.flinkdelta.testkit.CatalogState.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * Unity Catalog OSS v0.6.0's rules for ratifying commits of a managed table, shared by the legacy
 * commits API and the UC Delta API (both write one commit log):
 *
 * <ul>
 *   <li>a commit of version v needs the table at v - 1 (a gap is 400); the first commit of a table
 *       may be any version from 1; version, timestamps and size must be positive;
 *   <li>resending a tracked version with the same file name is accepted as a no-op, with another
 *       file it is 409; a version already backfilled and forgotten is always 409;
 *   <li>at most {@value #MAX_UNBACKFILLED} unbackfilled commits per table (the next is 429), where
 *       a backfill sent with the commit counts first;
 *   <li>a backfilled version beyond the latest (before this commit) is 400, and so is a backfill
 *       alone on a table without commits;
 *   <li>a table without commits reports latest version 0.
 * </ul>
 */
final class CommitCoordinator {

  static final int MAX_UNBACKFILLED = 10;

  private CommitCoordinator() {}

  /**
   * Applies a commit and/or a backfilled version.
   *
   * @return false when the commit is a replay of an accepted one, so nothing else of the request
   *     may apply
   */
  static boolean apply(Table table, CommitLog log, Commit commit, Long backfilled) {
    if (commit == null) {
      if (backfilled == null) {
        throw UnityCatalogException.badRequest("A request needs a commit or a backfilled version.");
      }
      backfillOnly(table, log, backfilled);
      return true;
    }
    validate(commit);
    long version = commit.version();
    boolean empty = log.latestVersion == 0 && log.unbackfilled.isEmpty();
    if (!empty) {
      if (version <= log.latestVersion) {
        if (isReplay(log, commit)) {
          return false;
        }
        throw UnityCatalogException.commitConflict(
            "Commit version already accepted. Current table version is " + log.latestVersion);
      }
      if (version != log.latestVersion + 1) {
        throw UnityCatalogException.badRequest(
            String.format(
                "Commit version must be the next version after the latest commit %d, but got %d",
                log.latestVersion, version));
      }
      if (backfilled != null && backfilled > log.latestVersion) {
        throw UnityCatalogException.badRequest(
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
        throw UnityCatalogException.tooManyUnbackfilled(
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
    log.unbackfilled.put(version, commit);
    log.latestVersion = version;
    return true;
  }

  /** Whether {@code commit} is an accepted commit sent again (same version, same file). */
  static boolean isReplay(CommitLog log, Commit commit) {
    Commit tracked = log.unbackfilled.get(commit.version());
    return tracked != null
        && commit.version() != log.latestBackfilledVersion
        && tracked.fileName().equals(commit.fileName());
  }

  /** The tracked, not yet backfilled commits from {@code start} to {@code end}, newest first. */
  static List<Commit> unbackfilled(CommitLog log, long start, long end) {
    List<Commit> commits = new ArrayList<>();
    for (Commit commit : log.unbackfilled.subMap(start, true, end, true).descendingMap().values()) {
      if (commit.version() != log.latestBackfilledVersion) {
        commits.add(commit);
      }
    }
    return commits;
  }

  private static void backfillOnly(Table table, CommitLog log, long backfilled) {
    if (log.latestVersion == 0 && log.unbackfilled.isEmpty()) {
      throw UnityCatalogException.badRequest(
          "Backfill request requires a prior commit; the commit log of "
              + table.fullName()
              + " is empty.");
    }
    if (backfilled > log.latestVersion) {
      throw UnityCatalogException.badRequest(
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

  private static void validate(Commit commit) {
    requirePositive(commit.version(), "version");
    requirePositive(commit.timestamp(), "timestamp");
    requirePositive(commit.fileSize(), "file_size");
    requirePositive(commit.modificationTime(), "file_modification_timestamp");
    if (commit.fileName() == null || commit.fileName().isBlank()) {
      throw UnityCatalogException.badRequest("Field must not be empty: file_name");
    }
  }

  private static void requirePositive(long value, String field) {
    if (value <= 0) {
      throw UnityCatalogException.badRequest("Field must be positive: " + field);
    }
  }
}
