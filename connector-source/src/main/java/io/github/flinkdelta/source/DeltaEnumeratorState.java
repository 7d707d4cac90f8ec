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
