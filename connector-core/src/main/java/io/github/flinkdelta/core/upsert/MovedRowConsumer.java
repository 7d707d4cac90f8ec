/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.write.RowLocation;
import org.apache.flink.annotation.Internal;

/** Receives a row a compaction moved: its key, where it was, and where it is now. */
@Internal
@FunctionalInterface
public interface MovedRowConsumer {
  /**
   * @param key the row's key ({@link KeyColumns})
   * @param fromFile the data file the row was in ({@link io.github.flinkdelta.core.write.FileIds})
   * @param fromPosition the row's position in that file
   * @param to the row's new file and position
   */
  void accept(String key, long fromFile, long fromPosition, RowLocation to);
}
