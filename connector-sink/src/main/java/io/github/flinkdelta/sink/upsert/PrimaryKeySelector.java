/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.KeyColumns;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/** Keys a row by its primary key ({@link KeyColumns}), so that each key has one owning writer. */
@Internal
public final class PrimaryKeySelector implements KeySelector<RowData, String> {

  private static final long serialVersionUID = 1L;

  private final KeyColumns key;

  public PrimaryKeySelector(KeyColumns key) {
    this.key = key;
  }

  @Override
  public String getKey(RowData row) {
    return key.keyOf(row);
  }
}
