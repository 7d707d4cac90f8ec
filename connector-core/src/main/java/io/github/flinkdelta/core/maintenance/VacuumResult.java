/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What one vacuum of a table did, or in a dry run would do.
 *
 * @param dryRun whether the files were only listed
 * @param deleted the files deleted (or to delete), relative to the table root
 * @param bytes their bytes
 * @param logFilesDeleted the expired log and checkpoint files deleted; 0 in a dry run
 */
@Internal
public record VacuumResult(boolean dryRun, List<String> deleted, long bytes, long logFilesDeleted) {

  public VacuumResult {
    deleted = List.copyOf(deleted);
  }
}
