/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import org.apache.flink.annotation.Internal;

/**
 * What one compaction run did.
 *
 * @param version the table version that holds the rewrite, or -1 when nothing was committed
 * @param filesRemoved the input files the version removes
 * @param filesAdded the files it adds in their place
 * @param bytesRemoved the bytes of the removed files
 * @param bytesAdded the bytes of the added files
 * @param rowsWritten the live rows rewritten
 * @param attempts plans made: more than one when another writer's commit overlapped a plan
 */
@Internal
public record CompactionResult(
    long version,
    int filesRemoved,
    int filesAdded,
    long bytesRemoved,
    long bytesAdded,
    long rowsWritten,
    int attempts) {

  /** A run that found nothing worth rewriting. */
  public static CompactionResult nothing(int attempts) {
    return new CompactionResult(-1, 0, 0, 0, 0, 0, attempts);
  }

  /** Whether the run committed a rewrite. */
  public boolean committed() {
    return version >= 0;
  }
}
