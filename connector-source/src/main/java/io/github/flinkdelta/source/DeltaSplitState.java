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
