/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The DataStream sink: {@link io.github.flinkdelta.sink.DeltaSink}, built with {@link
 * io.github.flinkdelta.sink.DeltaSink#builder()}, appends rows or, with a primary key, upserts and
 * deletes them by key, and commits each completed checkpoint as one Delta version exactly once. The
 * sub-packages hold its parts: {@code writer} (the append writer and write results), {@code upsert}
 * (the upsert operator and its key indexes), {@code compaction} (in-job compaction), {@code
 * committer} (aggregator, committer and committables), {@code dynamic} (one sink for many tables,
 * {@link io.github.flinkdelta.sink.DeltaSink#dynamic}), {@code maintenance} (the standalone
 * maintenance command) and {@code internal}.
 */
package io.github.flinkdelta.sink;
