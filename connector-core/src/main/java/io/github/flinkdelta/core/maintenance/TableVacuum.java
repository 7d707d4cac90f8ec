/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.kernel.KernelLog;
import io.github.flinkdelta.core.kernel.RemoveAction;
import io.github.flinkdelta.core.kernel.TableProtocol;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the files under a table's directory that no version within the retention references:
 * files of writer attempts that never reached a checkpoint (orphans), and data and deletion vector
 * files that versions older than the retention removed. A file is kept when the latest version
 * holds it, when a version within the retention removed it (so that reads of those versions still
 * work), or when it is younger than the retention (a running sink's files of checkpoints not yet
 * committed). Files and directories whose names start with {@code _} or {@code .} ({@code
 * _delta_log}, change data, checksums) are never touched, except partition directories ({@code
 * _col=value}); nor are the files of a Delta table nested under the root. Expired log files go as
 * the table's {@code delta.logRetentionDuration} allows, through Kernel's own cleanup.
 *
 * <p>Refused: catalog-managed tables (the catalog owns their files and may hold commits not yet in
 * the log), tables whose features this vacuum does not know ({@code vacuumProtocolCheck} asks a
 * vacuum to understand every feature of the protocol), and a retention shorter than the table's
 * {@code delta.deletedFileRetentionDuration}.
 */
@Internal
public final class TableVacuum {

  private static final Logger LOG = LoggerFactory.getLogger(TableVacuum.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  public static final String FILE_RETENTION = "delta.deletedFileRetentionDuration";
  static final String LOG_RETENTION = "delta.logRetentionDuration";
  static final String LOG_CLEANUP = "delta.enableExpiredLogCleanup";
  public static final Duration DEFAULT_FILE_RETENTION = Duration.ofDays(7);
  static final Duration DEFAULT_LOG_RETENTION = Duration.ofDays(30);

  /** The features whose files this vacuum knows where to find: all of them live in the log. */
  private static final Set<String> KNOWN_FEATURES =
      Set.of(
          "appendOnly",
          "invariants",
          "checkConstraints",
          "changeDataFeed",
          "generatedColumns",
          "columnMapping",
          "identityColumns",
          "deletionVectors",
          "rowTracking",
          "timestampNtz",
          "domainMetadata",
          "v2Checkpoint",
          "clustering",
          "typeWidening",
          "typeWidening-preview",
          "inCommitTimestamp",
          "vacuumProtocolCheck",
          "allowColumnDefaults",
          "icebergCompatV1",
          "icebergCompatV2",
          "collations-preview",
          "checkpointProtection");

  private static final Set<String> CATALOG_MANAGED =
      Set.of("catalogManaged", "catalogOwned-preview");

  private static final Pattern INTERVAL =
      Pattern.compile("(?i)\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]+)\\s*");

  private TableVacuum() {}

  public static VacuumResult run(
      String tableName,
      Engine engine,
      Snapshot snapshot,
      Configuration conf,
      Duration retention,
      boolean dryRun,
      long nowMillis) {
    TableProtocol protocol = TableProtocol.of(snapshot);
    check(tableName, protocol, snapshot, retention);
    long cutoff = nowMillis - retention.toMillis();
    URI root = URI.create(snapshot.getPath());
    Set<String> kept = referenced(tableName, engine, snapshot, conf, root, cutoff);
    List<String> deleted = new ArrayList<>();
    long bytes = 0;
    Path rootPath = new Path(snapshot.getPath());
    try {
      FileSystem fs = rootPath.getFileSystem(conf);
      // Files another Delta table nested under this one's directory holds belong to that table:
      // its root is a directory with a _delta_log of its own.
      List<LocatedFileStatus> candidates = new ArrayList<>();
      Set<String> nestedRoots = new TreeSet<>();
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(rootPath, true);
      while (files.hasNext()) {
        LocatedFileStatus file = files.next();
        String relative = FileIds.relativePath(file.getPath().toUri().toString(), root);
        int log = relative.indexOf("/_delta_log/");
        if (log > 0) {
          nestedRoots.add(relative.substring(0, log + 1));
        }
        if (hidden(relative) || file.getModificationTime() >= cutoff || kept.contains(relative)) {
          continue;
        }
        candidates.add(file);
      }
      for (LocatedFileStatus file : candidates) {
        String relative = FileIds.relativePath(file.getPath().toUri().toString(), root);
        if (nestedRoots.stream().anyMatch(relative::startsWith)) {
          continue;
        }
        if (!dryRun && !fs.delete(file.getPath(), false)) {
          LOG.warn("Could not delete {} of {}", relative, tableName);
          continue;
        }
        deleted.add(relative);
        bytes += file.getLen();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot vacuum Delta table " + tableName, e);
    }
    long logFiles = dryRun ? 0 : cleanLog(tableName, engine, snapshot, protocol, nowMillis);
    LOG.info(
        "{} {} files ({} bytes) of {} that no version within {} references{}",
        dryRun ? "Would delete" : "Deleted",
        deleted.size(),
        bytes,
        tableName,
        retention,
        dryRun ? "" : "; " + logFiles + " expired log files");
    return new VacuumResult(dryRun, deleted, bytes, logFiles);
  }

  private static void check(
      String tableName, TableProtocol protocol, Snapshot snapshot, Duration retention) {
    Set<String> features = new TreeSet<>(protocol.readerFeatures());
    features.addAll(protocol.writerFeatures());
    for (String feature : features) {
      if (CATALOG_MANAGED.contains(feature)) {
        throw new IllegalArgumentException(
            String.format(
                "Delta table %s is catalog-managed: its catalog owns its files and may hold"
                    + " commits not yet in the log, so this vacuum refuses it. Run the catalog's"
                    + " own maintenance instead.",
                tableName));
      }
    }
    features.removeAll(KNOWN_FEATURES);
    if (!features.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "Delta table %s uses table features %s, whose files this vacuum does not know how"
                  + " to find; it refuses to delete anything. Vacuum it with an engine that"
                  + " supports them.",
              tableName, features));
    }
    Duration minimum =
        retentionOf(
            tableName, snapshot.getTableProperties().get(FILE_RETENTION), DEFAULT_FILE_RETENTION);
    if (retention.compareTo(minimum) < 0) {
      throw new IllegalArgumentException(
          String.format(
              "A vacuum of Delta table %s with a retention of %s would delete files that reads of"
                  + " versions within the table's %s (%s) need, and files of checkpoints a sink"
                  + " has not committed yet; use a retention of at least %s, or lower the table"
                  + " property if you mean it.",
              tableName, retention, FILE_RETENTION, minimum, minimum));
    }
  }

  /** The files the latest version holds, and those versions since {@code cutoff} removed. */
  private static Set<String> referenced(
      String tableName,
      Engine engine,
      Snapshot snapshot,
      Configuration conf,
      URI root,
      long cutoff) {
    Set<String> kept = new HashSet<>();
    LiveFiles.scan(
        engine,
        snapshot,
        tableName,
        (file, scanFile) -> {
          kept.add(file.relativePath());
          keepVector(kept, file.deletionVector(), snapshot.getPath(), root);
        });
    // The tombstones of the snapshot's state: the removes of its checkpoint (sidecars included)
    // and of the commits after it, read through Kernel's internal log replay, which the public API
    // does not offer (TableVacuumTest fails when it changes). A tombstone whose deletion timestamp
    // is within the retention keeps its file.
    try (CloseableIterator<ColumnarBatch> actions = KernelLog.tombstones(engine, snapshot)) {
      while (actions.hasNext()) {
        ColumnarBatch batch = actions.next();
        int index = batch.getSchema().indexOf(KernelLog.REMOVE);
        try (CloseableIterator<io.delta.kernel.data.Row> rows = batch.getRows()) {
          while (rows.hasNext()) {
            io.delta.kernel.data.Row row = rows.next();
            if (row.isNullAt(index)) {
              continue;
            }
            RemoveAction remove = RemoveAction.of(row.getStruct(index));
            if (remove.deletionTimestamp().orElse(Long.MAX_VALUE) < cutoff) {
              continue;
            }
            kept.add(FileIds.relativePath(remove.path(), root));
            keepVector(kept, remove.deletionVector().orElse(null), snapshot.getPath(), root);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the log of Delta table " + tableName, e);
    }
    return kept;
  }

  private static void keepVector(
      Set<String> kept, DeletionVectorDescriptor vector, String tableRoot, URI root) {
    if (vector != null && !vector.isInline()) {
      kept.add(
          FileIds.relativePath(new Path(vector.absolutePath(tableRoot)).toUri().toString(), root));
    }
  }

  /**
   * Whether a path lies under a directory a vacuum leaves alone: one whose name starts with {@code
   * _} or {@code .} ({@code _delta_log}, change data, temporary files), unless it is a partition
   * directory ({@code _col=value}, of a partition column whose name starts with {@code _}).
   */
  private static boolean hidden(String relative) {
    String[] parts = relative.split("/");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      boolean partitionDirectory = i < parts.length - 1 && part.indexOf('=') > 0;
      if ((part.startsWith("_") || part.startsWith(".")) && !partitionDirectory) {
        return true;
      }
    }
    return false;
  }

  private static long cleanLog(
      String tableName, Engine engine, Snapshot snapshot, TableProtocol protocol, long nowMillis) {
    String enabled = snapshot.getTableProperties().get(LOG_CLEANUP);
    if ("false".equalsIgnoreCase(enabled)
        || protocol.writerFeatures().contains("checkpointProtection")) {
      return 0;
    }
    Duration logRetention =
        retentionOf(
            tableName, snapshot.getTableProperties().get(LOG_RETENTION), DEFAULT_LOG_RETENTION);
    try {
      return KernelLog.cleanExpiredLogs(engine, snapshot, nowMillis, logRetention.toMillis());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot clean the expired log files of Delta table " + tableName, e);
    }
  }

  /** A retention property in Delta's form ({@code interval 7 days}), or {@code fallback}. */
  public static Duration retentionOf(String tableName, String property, Duration fallback) {
    if (property == null) {
      return fallback;
    }
    Matcher m = INTERVAL.matcher(property);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2).toLowerCase(Locale.ROOT);
      switch (unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit) {
        case "week":
          return Duration.ofDays(7 * n);
        case "day":
          return Duration.ofDays(n);
        case "hour":
          return Duration.ofHours(n);
        case "minute":
          return Duration.ofMinutes(n);
        case "second":
          return Duration.ofSeconds(n);
        case "millisecond":
          return Duration.ofMillis(n);
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        String.format(
            "Delta table %s has a retention property '%s' that is not an interval such as"
                + " 'interval 7 days'",
            tableName, property));
  }
}
