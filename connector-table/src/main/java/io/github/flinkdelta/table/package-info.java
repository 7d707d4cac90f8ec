/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The {@code 'connector' = 'delta'} SQL connector: the table factory and the dynamic table sink and
 * source it makes, over {@code DeltaSink} and {@code DeltaSource}. Its options are in {@link
 * io.github.flinkdelta.table.DeltaTableOptions}.
 */
package io.github.flinkdelta.table;
