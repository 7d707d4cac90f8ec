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
