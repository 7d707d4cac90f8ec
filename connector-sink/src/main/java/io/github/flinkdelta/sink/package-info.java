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

/**
 * The DataStream sink: {@link io.github.flinkdelta.sink.DeltaSink}, built with {@link
 * io.github.flinkdelta.sink.DeltaSink#builder()}, appends rows or, with a primary key, upserts and
 * deletes them by key, and commits each completed checkpoint as one Delta version exactly once. The
 * sub-packages hold its parts: {@code writer} (the append writer and write results), {@code upsert}
 * (the upsert operator and its key indexes), {@code compaction} (in-job compaction), {@code
 * committer} (aggregator, committer and committables), {@code maintenance} (the standalone
 * maintenance command) and {@code internal}.
 */
package io.github.flinkdelta.sink;
