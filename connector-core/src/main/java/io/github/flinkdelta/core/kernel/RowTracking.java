/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.rowtracking.MaterializedRowTrackingColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/** Whether Kernel assigns row ids on a table's commits, and where rewritten rows keep theirs. */
@Internal
public final class RowTracking {

  private static final String FEATURE = "rowTracking";

  private RowTracking() {}

  /**
   * Reads the protocol through Kernel's internal snapshot: the public accessor of Kernel 4.4 is
   * gone again on Delta's main line.
   */
  public static boolean isOn(Snapshot snapshot) {
    return ((SnapshotImpl) snapshot).getProtocol().getWriterFeatures().contains(FEATURE);
  }

  /**
   * The physical names of the table's materialized row id and row commit version columns, in that
   * order, as the table's configuration records them.
   *
   * @throws IllegalStateException naming the table when its configuration lacks one
   */
  public static List<String> materializedColumns(String tableName, Snapshot snapshot) {
    Map<String, String> configuration = snapshot.getTableProperties();
    List<String> names = new ArrayList<>();
    for (MaterializedRowTrackingColumn column :
        List.of(
            MaterializedRowTrackingColumn.MATERIALIZED_ROW_ID,
            MaterializedRowTrackingColumn.MATERIALIZED_ROW_COMMIT_VERSION)) {
      String name = configuration.get(column.getMaterializedColumnNameProperty());
      if (name == null) {
        throw new IllegalStateException(
            String.format(
                "Delta table %s has row tracking on but no '%s' in its configuration: its rows'"
                    + " ids cannot be kept when their files are rewritten",
                tableName, column.getMaterializedColumnNameProperty()));
      }
      names.add(name);
    }
    return names;
  }
}
