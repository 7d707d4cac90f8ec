/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import io.github.flinkdelta.core.write.PartitionColumn;
import io.github.flinkdelta.core.write.PartitionValues;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Keys a row by its partition values in Delta's string form, for {@code sink.distribution=hash}.
 */
@Internal
public final class PartitionKeySelector implements KeySelector<RowData, String> {

  private static final long serialVersionUID = 1L;

  private final List<PartitionColumn> columns;
  private transient RowData.FieldGetter[] getters;

  public PartitionKeySelector(List<PartitionColumn> columns) {
    this.columns = List.copyOf(columns);
  }

  @Override
  public String getKey(RowData row) {
    if (getters == null) {
      getters = new RowData.FieldGetter[columns.size()];
      for (int i = 0; i < getters.length; i++) {
        // The getter of the nullable type checks for null (see RowCopier's getters).
        getters[i] =
            RowData.createFieldGetter(columns.get(i).type().copy(true), columns.get(i).position());
      }
    }
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < getters.length; i++) {
      Object value = getters[i].getFieldOrNull(row);
      // A directory name is unambiguous: values are escaped and null has its own marker.
      key.append(
              PartitionValues.directory(
                  columns.get(i).name(),
                  value == null ? null : PartitionValues.format(value, columns.get(i).type())))
          .append('/');
    }
    return key.toString();
  }
}
