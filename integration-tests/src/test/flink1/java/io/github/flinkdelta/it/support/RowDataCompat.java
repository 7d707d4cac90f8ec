/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.table.data.RowData;

/** {@link RowData} for test rows; Flink 1.20 has no {@code getVariant}. */
interface RowDataCompat extends RowData {}
