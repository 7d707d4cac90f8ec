/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import org.apache.flink.annotation.Internal;

/** Receives a live row of a table: its key and where it is. */
@Internal
@FunctionalInterface
public interface LiveRowConsumer {
  /**
   * @param key the row's key ({@link KeyColumns})
   * @param fileId the row's data file ({@link io.github.flinkdelta.core.write.FileIds})
   * @param position the row's position in the file
   */
  void accept(String key, long fileId, long position);
}
