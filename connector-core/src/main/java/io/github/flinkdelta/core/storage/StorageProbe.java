/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
