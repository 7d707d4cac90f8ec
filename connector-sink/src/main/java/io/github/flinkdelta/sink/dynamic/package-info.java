/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * One sink for many tables: {@link io.github.flinkdelta.sink.dynamic.DynamicDeltaSink} turns each
 * element into {@link io.github.flinkdelta.sink.dynamic.DynamicRecord}s that name their tables
 * (through a {@link io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator}), creates and evolves
 * tables as their records arrive, applies the column renames and drops a change source reports
 * ({@link io.github.flinkdelta.sink.dynamic.TableChange}), and commits each table's part of every
 * completed checkpoint as one version of that table, exactly once.
 */
package io.github.flinkdelta.sink.dynamic;
