/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import java.io.IOException;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Checks, before a job writes anything, that a table's location accepts files. */
@Internal
public final class StorageProbe {

  private StorageProbe() {}

  /**
   * Creates and deletes a small file under {@code location}.
   *
   * @throws IllegalStateException naming the location and the cause when that fails
   */
  public static void checkWritable(String location, Configuration conf) {
    Path probe = new Path(location, ".flink-delta-write-check-" + UUID.randomUUID());
    try {
      FileSystem fs = probe.getFileSystem(conf);
      fs.create(probe, false).close();
      fs.delete(probe, false);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          String.format(
              "Cannot write to Delta table location %s (%s: %s). Check the path, the storage"
                  + " credentials and the permissions of the user running the job.",
              location, e.getClass().getSimpleName(), e.getMessage()),
          e);
    }
  }
}
