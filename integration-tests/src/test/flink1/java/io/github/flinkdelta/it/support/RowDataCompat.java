package io.github.flinkdelta.it.support;

import org.apache.flink.table.data.RowData;

/** {@link RowData} for test rows; Flink 1.20 has no {@code getVariant}. */
interface RowDataCompat extends RowData {}
