/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.maintenance;

import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionResult;
import io.github.flinkdelta.core.maintenance.VacuumResult;
import io.github.flinkdelta.core.table.DeltaTable;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.util.TimeUtils;

/** What a maintenance run does to each table, and the line it reports. */
sealed interface MaintenanceAction extends Serializable {

  /** Runs on {@code table}; returns what it did, as one line. */
  String run(DeltaTable table);

  /**
   * {@link io.github.flinkdelta.core.maintenance.TableMaintenance#compact} under the app id {@code
   * appId}.
   */
  record Compact(CompactionOptions options, String appId) implements MaintenanceAction {
    @Override
    public String run(DeltaTable table) {
      CompactionResult result = table.maintenance().compact(options, appId);
      return result.committed()
          ? String.format(
              "compacted %d files (%d bytes) into %d (%d bytes) in version %d",
              result.filesRemoved(),
              result.bytesRemoved(),
              result.filesAdded(),
              result.bytesAdded(),
              result.version())
          : "nothing to compact";
    }
  }

  /**
   * {@link io.github.flinkdelta.core.maintenance.TableMaintenance#vacuum}, or only its list with
   * {@code dryRun}.
   */
  record Vacuum(Duration retention, boolean dryRun) implements MaintenanceAction {
    @Override
    public String run(DeltaTable table) {
      VacuumResult result = table.maintenance().vacuum(retention, dryRun);
      StringBuilder line =
          new StringBuilder(
              String.format(
                  "%s %d files (%d bytes) no version within %s references",
                  dryRun ? "would delete" : "deleted",
                  result.deleted().size(),
                  result.bytes(),
                  TimeUtils.formatWithHighestUnit(retention)));
      if (dryRun) {
        result
            .deleted()
            .forEach(file -> line.append(System.lineSeparator()).append("  ").append(file));
      } else {
        line.append(", and ").append(result.logFilesDeleted()).append(" expired log files");
      }
      return line.toString();
    }
  }
}
