package io.github.flinkdelta.core.table;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;

/** Whether Kernel assigns row ids on a table's commits. */
final class RowTracking {

  private static final String FEATURE = "rowTracking";

  private RowTracking() {}

  /**
   * Reads the protocol through Kernel's internal snapshot: the public accessor of Kernel 4.4 is
   * gone again on Delta's main line.
   */
  static boolean isOn(Snapshot snapshot) {
    return ((SnapshotImpl) snapshot).getProtocol().getWriterFeatures().contains(FEATURE);
  }
}
