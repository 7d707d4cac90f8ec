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
package io.github.flinkdelta.core.catalog;

import io.delta.kernel.CommitRange;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import org.apache.flink.annotation.Internal;

/**
 * A table's versions as a reader sees them: the latest, one in the past, and the commits between
 * two. For a catalog-managed table every answer includes the commits the catalog has ratified but
 * not yet published to {@code _delta_log}.
 */
@Internal
public interface TableHistory extends AutoCloseable {

  /** The table's latest snapshot. */
  Snapshot latest(Engine engine);

  /** The snapshot of {@code version}. */
  Snapshot atVersion(Engine engine, long version);

  /** The snapshot of the last version committed at or before {@code timestampMillis}. */
  Snapshot atTimestamp(Engine engine, long timestampMillis);

  /** The commits of the versions from {@code start} through {@code end}, both included. */
  CommitRange commits(Engine engine, long start, long end);

  @Override
  default void close() {}
}
