/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What the enumerator checkpoints: the next version it plans, and the splits it planned that no
 * reader has yet.
 *
 * @param nextVersion the first version not yet planned, or -1 before the source's start was planned
 * @param pending splits planned and not yet assigned, in the order they are to be assigned
 */
@Internal
public record DeltaEnumeratorState(long nextVersion, List<DeltaSplit> pending) {

  public DeltaEnumeratorState {
    pending = List.copyOf(pending);
  }

  /** The state of a source that has planned nothing yet. */
  static DeltaEnumeratorState initial() {
    return new DeltaEnumeratorState(-1, List.of());
  }
}
