/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.TableHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;

/**
 * The versions of a table a committer has needed to look into, read from the log once and kept: the
 * versions of other writers since a checkpoint's index version, which an upsert commit settles
 * against, and those between the file list it holds and a newer snapshot. Versions it committed
 * itself are known without reading: their transaction is all that is asked of them.
 *
 * <p>Keeps at most {@link #CAPACITY} versions, the newest.
 */
@Internal
public final class LoggedVersions {

  public static final int CAPACITY = 1_000;

  private final Engine engine;
  private final String tableRoot;
  private final Supplier<TableHistory> history;
  private final NavigableMap<Long, TableLog.Version> read = new TreeMap<>();
  private final NavigableMap<Long, String> committed = new TreeMap<>();

  public LoggedVersions(Engine engine, String tableRoot, Supplier<TableHistory> history) {
    this.engine = engine;
    this.tableRoot = tableRoot;
    this.history = history;
  }

  /** Records that this committer committed {@code version} under {@code appId}. */
  public void committed(long version, String appId) {
    committed.put(version, appId);
    trim();
  }

  /**
   * The versions after {@code from} through {@code to} that none of {@code ownAppIds} committed,
   * read from the log where not read before; versions this committer committed under one of them
   * are left out without reading them.
   */
  public List<TableLog.Version> notCommittedBy(long from, long to, List<String> ownAppIds) {
    List<TableLog.Version> versions = new ArrayList<>();
    for (TableLog.Version version : versions(from, to, ownAppIds)) {
      if (ownAppIds.stream().noneMatch(version::isOf)) {
        versions.add(version);
      }
    }
    return versions;
  }

  /** Every version after {@code from} through {@code to}, read from the log where not read. */
  public List<TableLog.Version> all(long from, long to) {
    return versions(from, to, List.of());
  }

  private List<TableLog.Version> versions(long from, long to, List<String> skipped) {
    Map<Long, TableLog.Version> found = new TreeMap<>();
    long missingFrom = -1;
    for (long v = from + 1; v <= to + 1; v++) {
      boolean known = false;
      if (v <= to) {
        String committer = committed.get(v);
        TableLog.Version cached = read.get(v);
        if (cached != null) {
          found.put(v, cached);
        }
        known = cached != null || (committer != null && skipped.contains(committer));
      }
      if (!known && v <= to && missingFrom < 0) {
        missingFrom = v;
      } else if ((known || v > to) && missingFrom >= 0) {
        for (TableLog.Version version :
            TableLog.read(engine, history.get(), tableRoot, missingFrom, v - 1)) {
          found.put(version.version(), version);
          read.put(version.version(), version);
        }
        missingFrom = -1;
      }
    }
    trim();
    return new ArrayList<>(found.values());
  }

  private void trim() {
    trim(read);
    trim(committed);
  }

  private static void trim(NavigableMap<Long, ?> versions) {
    while (versions.size() > CAPACITY) {
      versions.pollFirstEntry();
    }
  }
}
