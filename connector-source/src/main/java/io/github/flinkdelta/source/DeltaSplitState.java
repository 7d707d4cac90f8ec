/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import org.apache.flink.annotation.Internal;

/**
 * How far the task thread got in one split: the position after the last row it emitted, and whether
 * it emitted any yet. A checkpoint takes the split at that position.
 */
@Internal
final class DeltaSplitState {

  private final DeltaSplit split;
  private long next;
  private boolean started;

  DeltaSplitState(DeltaSplit split) {
    this.split = split;
    this.next = split.position();
  }

  DeltaSplit split() {
    return split;
  }

  /** Records that the row at {@code position} was emitted. */
  void emitted(long position) {
    next = position + 1;
  }

  /** Whether this is the split's first row emitted by this reader, and notes that it was. */
  boolean start() {
    boolean first = !started;
    started = true;
    return first;
  }

  /** The split, to be read from the row after the last emitted. */
  DeltaSplit toSplit() {
    return split.at(next);
  }
}
