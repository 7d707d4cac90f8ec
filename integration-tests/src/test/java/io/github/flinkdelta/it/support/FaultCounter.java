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
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Counts the faults an injector actually fired. The injector runs in the MiniCluster, in the test's
 * JVM, and holds the counter as a {@link SharedReference}: each test gets fresh counters from its
 * own {@link SharedObjectsExtension}, which forgets them when the test ends, so no count leaks from
 * one test into the next.
 */
public record FaultCounter(SharedReference<AtomicInteger> fired) implements Serializable {

  /** A counter at zero, living as long as the current test of {@code shared}. */
  public static FaultCounter in(SharedObjectsExtension shared) {
    return new FaultCounter(shared.add(new AtomicInteger()));
  }

  /** A fault was injected. */
  public void fire() {
    fired.get().incrementAndGet();
  }

  /** The faults injected so far. */
  public int count() {
    return fired.get().get();
  }
}
