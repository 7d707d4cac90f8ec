/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.variant.Variant;

/** {@link RowData} for test rows; Flink 2.1+ adds the abstract {@code getVariant}. */
interface RowDataCompat extends RowData {

  @Override
  default Variant getVariant(int pos) {
    throw new UnsupportedOperationException("Field " + pos + " does not have that type");
  }
}
